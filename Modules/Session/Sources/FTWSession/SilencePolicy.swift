import FTWBus
import FTWSessionInterface

/// What a deadline that passed without the box's answer means, and how long the deadlines are: pure judgements from
/// what was seen to a verdict, beside ``ReconnectPolicy`` (which says when to dial again after it).
///
/// A silence is the box's only on a quiet, quick link while it is in its room: junk from its side is the box
/// misbehaving, bytes of a message still arriving are a slow link, and a relay that took more than half the deadline
/// to let the phone in left no time for an answer. A silence that counts is read by the pairing code's rules first
/// (``CodeOffer``); for a known device, once may be a busy box, and ``silencesMeaningRefusal`` in a row its refusal.
/// The return's watchdog judges the path the same way: bytes on their way are a slow path, not a dead one.
struct SilencePolicy: Sendable {
    /// A step whose deadline a silence can pass.
    enum Step: String, Sendable {
        case handshake
        case hello
    }

    /// What was seen when a step's deadline passed.
    struct Seen: Sendable, Hashable {
        /// The step that went unanswered.
        let step: Step
        /// Its deadline.
        let deadline: Duration
        /// Messages from the box's side that no box sends, since the deadline started.
        let junk: Int
        /// Bytes of a message on their way when the deadline passed.
        let arrivingBytes: Int
        /// How long the relay took to let this phone into the room, when the verdict weighs it (the handshake's).
        let roomDelay: Duration?
    }

    /// What a deadline's passing means for the connection.
    enum Verdict: Sendable, Equatable {
        /// No silence of the box's (junk, a slow link): close and redial; the run of silences starts again.
        case unclear(SessionError)
        /// The box, in its room on a quiet link, left the step unanswered: close and redial after the box's backoff,
        /// `silentHandshakes` silences in a row so far.
        case silence(SessionError, silentHandshakes: Int)
        /// The box refused the pairing code: close, and dial no more until the next return.
        case refusal(SessionError)
    }

    /// The session's deadlines.
    let timing: SessionConfiguration.Timing
    /// Silent handshakes in a row, of a known device, that mean the box no longer knows this phone.
    let silencesMeaningRefusal: Int

    /// Why a deadline that passed without an answer is no silence of the box's, or nil when the silence counts.
    /// Another phone's traffic in the room is no answer and no junk, so it is not seen here.
    func unclear(_ seen: Seen) -> SessionError? {
        let (step, deadline) = (seen.step.rawValue, seen.deadline)
        if seen.junk > 0 {
            return SessionError(
                .boxMisbehaved,
                "the box sent what it should not: \(seen.junk) message\(seen.junk == 1 ? "" : "s") no box"
                    + " sends, and no answer to the \(step) within \(deadline)"
            )
        }
        if seen.arrivingBytes > 0 {
            return SessionError(
                .slowLink,
                "no answer in time: \(seen.arrivingBytes) bytes of a message had arrived when the \(step)'s"
                    + " \(deadline) ran out; the link is too slow"
            )
        }
        if let delay = seen.roomDelay, delay * 2 > deadline {
            return SessionError(
                .slowLink,
                "no answer in time: the relay took \(delay) to say the box is in its room, so no answer to the"
                    + " \(step) could come within its \(deadline); the link is too slow"
            )
        }
        return nil
    }

    /// The handshake's deadline passed, `silentBefore` silences in a row before it, with the pairing code at `code`:
    /// the verdict, and where the code stands after it (the code's rules read only a silence that counts).
    func handshake(_ seen: Seen, code: CodeOffer, silentBefore: Int) -> (verdict: Verdict, code: CodeOffer) {
        if let unclear = unclear(seen) { return (.unclear(unclear), code) }
        var code = code
        let verdict = code.silenced()
        return (handshake(verdict, silentBefore: silentBefore), code)
    }

    /// A silence that counts, read by the pairing code's rules as `code`.
    private func handshake(_ code: CodeOffer.Verdict, silentBefore: Int) -> Verdict {
        switch code {
        case .greetNext:
            return .silence(
                SessionError(
                    .handshakeUnanswered,
                    "the box was in its room and did not answer the pairing code in time; greeting it as a known"
                        + " device next, since it may have enrolled this phone and lost its answer"
                ),
                silentHandshakes: silentBefore
            )
        case .offerAgain:
            return .silence(
                SessionError(
                    .handshakeUnanswered,
                    "the box was in its room and does not know this phone yet: offering the pairing code next"
                ),
                silentHandshakes: silentBefore
            )
        case .codeRefused:
            return .refusal(
                SessionError(
                    .refused,
                    "the box was in its room and answered neither the pairing code nor this phone as a known"
                        + " device: it refused the code"
                )
            )
        case .knownDeviceSilence:
            return .silence(knownDevice(silences: silentBefore + 1), silentHandshakes: silentBefore + 1)
        }
    }

    /// A known device's greeting met its `silences`-th silence in a row: once may be a busy box, several its refusal.
    func knownDevice(silences: Int) -> SessionError {
        guard silences >= silencesMeaningRefusal else {
            return SessionError(
                .handshakeUnanswered,
                "the box is in its room but did not answer the handshake in time (it may be busy or restarting)"
            )
        }
        return SessionError(
            .refused,
            "the box was in its room and left \(silences) handshakes in a row unanswered on a quiet link: it no"
                + " longer knows this phone"
        )
    }

    /// `hello_ok` did not come in time after the handshake: why, as a person is told.
    func hello(junk: Int, arrivingBytes: Int) -> SessionError {
        let seen = Seen(
            step: .hello,
            deadline: timing.helloAnswer,
            junk: junk,
            arrivingBytes: arrivingBytes,
            roomDelay: nil
        )
        return unclear(seen)
            ?? SessionError(.helloUnanswered, "the box finished the handshake but did not answer hello in time")
    }

    /// The return's watchdog (counting from `moment`) ran out before anything arrived: the path likely died, and
    /// this is why it is dialled again; nil when bytes of a message were on their way (the path lives, only slowly).
    func watchdog(from moment: WatchdogMoment, arrivingBytes: Int) -> SessionError? {
        guard arrivingBytes == 0 else { return nil }
        return SessionError(
            .carrierLost,
            "nothing arrived within \(timing.foregroundSilence) of \(moment.rawValue): dialling again"
        )
    }

    /// The handshake's deadline: the short one on the first handshake after a return to the front (`hurried`, a
    /// phone in a hurry), and on each handshake of an enrolment in progress (`codeKnown` false) over a link quick
    /// enough for it (the relay let the phone in within `roomDelay`): a box answers a known key or a good code at
    /// once, and the greeting and the offer take turns, so a short silence costs a turn, not a wrong verdict. The
    /// long one otherwise.
    func handshakeDeadline(hurried: Bool, codeKnown: Bool, roomDelay: Duration?) -> Duration {
        guard !hurried else { return timing.foregroundHandshake }
        guard !codeKnown, let delay = roomDelay, delay * 2 <= timing.foregroundHandshake else {
            return timing.handshake
        }
        return timing.foregroundHandshake
    }
}
