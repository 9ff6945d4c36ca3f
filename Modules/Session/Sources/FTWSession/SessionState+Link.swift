import FTWBus
import FTWClockSeam
import FTWNoise
import FTWSessionInterface

extension SessionState {
    /// Whether the session wants a carrier: the app is in front, the box has not ended the session, and the service
    /// has not stopped (nothing would carry a dial's work any more).
    var wantsCarrier: Bool {
        (phase == .active || phase == .inactive) && halt == nil && runState != .stopped
    }

    /// Dials now if a carrier is wanted and none is open, dialling, or waiting out a backoff.
    mutating func dialIfWanted() {
        guard wantsCarrier, connection == nil, timers[.redial] == nil else { return }
        generation += 1
        connection = LiveConnection(
            generation: generation,
            firstRequestID: configuration.firstRequestID,
            dialStarted: environment.elapsed()
        )
        actions.append(.connect(generation: generation))
        publish(.connection(.dialing(attempt: reconnect.attempt + 1)))
    }

    /// A dial of connection `generation` finished: the carrier attached (and the box comes into the room at
    /// `arrival` when the relay has yet to move it there), or it failed.
    mutating func dialed(_ generation: Int, _ outcome: Result<BoxArrival?, SessionError>) {
        guard connection?.generation == generation, connection?.stage == .dialing else { return }
        switch outcome {
        case .failure(let failure):
            let code = Self.dialCodes.contains(failure.code) ? failure.code : .dialFailed
            let reason = SessionError(code, "the dial failed: \(failure.message)", cause: failure.cause ?? failure)
            if code == .relayNotTrusted, configuration.haltsOnUntrustedRelay { return haltSession(reason) }
            connectionLost(reason, closeCode: nil)
        case .success(let arrival):
            connection?.stage = .awaitingRoom
            if let arrival {
                awaitBox(arrival)
            } else {
                arm(.room, after: configuration.timing.handshake)
            }
        }
    }

    /// The carrier is in this hour's room before the relay has moved the box there (the hour's turn): it stays, and
    /// the empty room's deadline and a return's watchdog count from the box's arrival, since until then the room is
    /// empty by the relay's rule, not by a dead path or an absent box, and a redial would only spend the household's
    /// joins on another empty room. `ready` still starts the handshake the moment it comes.
    private mutating func awaitBox(_ arrival: BoxArrival) {
        let wait = Duration.milliseconds(max(0, arrival.dueByMs - environment.nowMs))
        let attachedAfter = environment.elapsed() - (connection?.dialStarted ?? .zero)
        connection?.awaitedBox = (arrival, attachedAfter)
        arm(.room, after: configuration.timing.handshake + wait)
        if timers[.foregroundSilence] != nil {
            arm(.foregroundSilence, after: configuration.timing.foregroundSilence + wait)
        }
        publish(.connection(.awaitingBox(arrival)))
    }

    /// The dial failures a person is told apart; any other reads as `.dialFailed`.
    private static let dialCodes: Set<SessionError.Code> = [
        .relayUnreachable, .relayNotTrusted, .slowLink, .dialFailed,
    ]

    mutating func carrierEvent(_ event: CarrierEvent, generation: Int) {
        guard connection?.generation == generation else { return }
        if connection?.anythingArrived == false {
            connection?.anythingArrived = true
            cancel(.foregroundSilence)
        }
        switch event {
        case .control(RelayCloseCode.ready):
            roomReady()
        case .control(RelayCloseCode.gone):
            boxLeft()
        case .control:
            connection?.junk += 1
        case .binary(let bytes):
            traffic.receivedMessages += 1
            traffic.receivedBytes += bytes.count
            received(bytes)
        case .closed(let code, let reason):
            publish(.carrierClosed(code: code, reason: reason))
            connectionLost(Self.closed(code: code, reason: reason), closeCode: code, closeReason: reason)
        }
    }

    /// Why the carrier closed, as a person is told: the relay's "slow down" by name, anything else by its code.
    private static func closed(code: Int, reason: String) -> SessionError {
        guard !RelayCloseCode.isSlowDown(code: code, reason: reason) else {
            return SessionError(
                .relaySlowDown,
                "the relay asked to slow down (4429 slow down): this address has used its joins for the relay's"
                    + " minute, so the phone tries again every few seconds until the minute turns"
            )
        }
        return SessionError(.carrierLost, "the carrier closed (\(reason.isEmpty ? "\(code)" : "\(code) \(reason)"))")
    }

    /// The box is in the room: a new Noise session starts (after ending one that was running, since a box that
    /// rejoins has dropped its sessions).
    mutating func roomReady() {
        guard let connection, connection.stage != .dialing else { return }
        let stage = connection.stage
        if stage == .awaitingRoom, timers[.room] != nil, connection.roomDelay == nil {
            let delay = linkDelay(of: connection)
            self.connection?.roomDelay = delay
        }
        cancel(.room)
        reconnect.roomJoined()
        if stage != .awaitingRoom {
            endNoiseSession(
                reason: "the box rejoined the room",
                failing: SessionError(.carrierLost, "the box rejoined")
            )
        }
        startHandshake()
    }

    /// How long the relay took to let this phone into the room with its box, from the dial's start: the link's delay
    /// as this phone can see it. A box that came at the hour's turn spent part of that wait on its own way in (the
    /// relay's move, then its rejoin wait of up to 5 s, which the phone cannot see), so the link is judged on what it
    /// surely took: the dial, or the time `ready` came after the box was due, whichever is longer. A `ready` before the
    /// move was due came from a box already there: all of the wait was the link's.
    private func linkDelay(of connection: LiveConnection) -> Duration {
        let delay = environment.elapsed() - connection.dialStarted
        let nowMs = environment.nowMs
        guard let (arrival, attachedAfter) = connection.awaitedBox, nowMs >= arrival.movesAtMs else { return delay }
        return max(attachedAfter, .milliseconds(nowMs - arrival.dueByMs))
    }

    /// The relay says the box left: the Noise session is over, the carrier stays and waits for `ready`.
    mutating func boxLeft() {
        guard let stage = connection?.stage, stage != .dialing, stage != .awaitingRoom else { return }
        endNoiseSession(reason: "box offline", failing: SessionError(.carrierLost, "the box left the room"))
        publish(.connection(.closed(reason: SessionError(.boxOffline, "box offline"))))
    }

    /// The carrier attached, and the relay has not said `ready` within the handshake's deadline: the box is not in
    /// its room. The carrier stays and waits for `ready`, as after `gone`; the person is told the box is offline.
    mutating func roomStayedEmpty() {
        guard connection?.stage == .awaitingRoom else { return }
        publish(
            .connection(
                .closed(reason: SessionError(.boxOffline, "the relay is up but the box is not in its room"))
            )
        )
    }

    /// The handshake's deadline passed without message 2: no silence of the box's when its side sent junk, a
    /// message was still arriving, or the link is too slow for the deadline to judge; otherwise a silence, which the
    /// pairing code's rules read first (``CodeOffer``), and which for a known device is a refusal once the box has
    /// been silent to several handshakes in a row.
    ///
    /// A pairing code met by such a silence is never offered again on its own (every message 1 that carries it counts
    /// as a guess on the box): the next handshake greets as a known device, since the box may have enrolled this
    /// phone and lost its answer, and a silence to that greeting is the box's refusal of the code.
    mutating func handshakeTimedOut(arrivingBytes: Int) {
        guard let connection, connection.stage == .handshaking else { return }
        if let unclear = unclearSilence(
            of: "handshake",
            deadline: connection.handshakeDeadline,
            judgingLink: true,
            arrivingBytes: arrivingBytes
        ) {
            silentHandshakes = 0
            return boxFailed(unclear)
        }
        switch codeOffer.silenced() {
        case .greetNext:
            boxFailed(
                SessionError(
                    .handshakeUnanswered,
                    "the box was in its room and did not answer the pairing code in time; greeting it as a known"
                        + " device next, since it may have enrolled this phone and lost its answer"
                )
            )
        case .offerAgain:
            boxFailed(
                SessionError(
                    .handshakeUnanswered,
                    "the box was in its room and does not know this phone yet: offering the pairing code next"
                )
            )
        case .codeRefused:
            haltSession(
                SessionError(
                    .refused,
                    "the box was in its room and answered neither the pairing code nor this phone as a known"
                        + " device: it refused the code"
                )
            )
        case .knownDeviceSilence:
            knownDeviceSilenced()
        }
    }

    /// A known device's greeting met a silence that counts: once may be a busy box, several in a row its refusal.
    private mutating func knownDeviceSilenced() {
        silentHandshakes += 1
        guard silentHandshakes >= configuration.silencesMeaningRefusal else {
            return boxFailed(
                SessionError(
                    .handshakeUnanswered,
                    "the box is in its room but did not answer the handshake in time (it may be busy or restarting)"
                )
            )
        }
        boxFailed(
            SessionError(
                .refused,
                "the box was in its room and left \(silentHandshakes) handshakes in a row unanswered on a quiet"
                    + " link: it no longer knows this phone"
            )
        )
    }

    /// Why a deadline that passed without our answer is no silence of the box's: junk from its side, a message
    /// still arriving (judged by bytes, so a link that trickles is not a quiet one), or, with `judgingLink`, a relay
    /// that took so long to let this phone into the room that the deadline could not cover a round trip; nil when
    /// the silence counts. Another phone's traffic in the room is no answer and no junk.
    private func unclearSilence(
        of step: String,
        deadline: Duration,
        judgingLink: Bool,
        arrivingBytes arriving: Int
    ) -> SessionError? {
        guard let connection else { return nil }
        if connection.junk > 0 {
            return SessionError(
                .boxMisbehaved,
                "the box sent what it should not: \(connection.junk) message\(connection.junk == 1 ? "" : "s") no box"
                    + " sends, and no answer to the \(step) within \(deadline)"
            )
        }
        if arriving > 0 {
            return SessionError(
                .slowLink,
                "no answer in time: \(arriving) bytes of a message had arrived when the \(step)'s \(deadline) ran"
                    + " out; the link is too slow"
            )
        }
        if judgingLink, let delay = connection.roomDelay, delay * 2 > deadline {
            return SessionError(
                .slowLink,
                "no answer in time: the relay took \(delay) to say the box is in its room, so no answer to the"
                    + " \(step) could come within its \(deadline); the link is too slow"
            )
        }
        return nil
    }

    /// `hello_ok` did not come in time after the handshake: close, and redial after the handshake's backoff.
    mutating func helloUnanswered(arrivingBytes: Int) {
        guard connection?.stage == .greeting else { return }
        boxFailed(
            unclearSilence(
                of: "hello",
                deadline: configuration.timing.helloAnswer,
                judgingLink: false,
                arrivingBytes: arrivingBytes
            )
                ?? SessionError(.helloUnanswered, "the box finished the handshake but did not answer hello in time")
        )
    }

    /// A return to the front (or a network change under a live stream) heard nothing from the relay in time: the
    /// path likely died (a phone's NAT mapping does in the background; the old network's path does when it changed),
    /// so the carrier is dropped and dialled once more, with the short deadline again. Bytes of a message on their
    /// way count as heard: the path lives, it is only slow.
    mutating func foregroundStayedSilent(arrivingBytes: Int) {
        guard wantsCarrier, connection?.anythingArrived == false, arrivingBytes == 0 else { return }
        endConnection(
            reason: SessionError(
                .carrierLost,
                "nothing arrived within \(configuration.timing.foregroundSilence) of \(watchdogFrom.rawValue): dialling again"
            ),
            failing: SessionError(.carrierLost, "the carrier heard nothing after the return")
        )
        cancel(.redial)
        foregroundAttempt = true
        dialIfWanted()
    }

    mutating func startHandshake() {
        var greeting = identity
        if !codeOffer.offersCode { greeting.payload = [] }
        let started: (SecureChannel, message1: [UInt8])
        do {
            started = try SecureChannel.start(greeting)
        } catch {
            haltSession(
                SessionError(.handshakeFailed, "the session's keys are unusable: \(error.message)", cause: error)
            )
            return
        }
        let deadline = handshakeDeadline()
        connection?.channel = started.0
        connection?.stage = .handshaking
        connection?.offeredCode = codeOffer.offersCode
        connection?.handshakeDeadline = deadline
        connection?.junk = 0
        send(raw: started.message1)
        arm(.handshake, after: deadline)
        foregroundAttempt = false
        publish(.connection(.handshaking))
    }

    /// The short deadline on the first handshake after a return to the front (a phone in a hurry), and on each
    /// handshake of an enrolment in progress over a link quick enough for it: a box answers a known key or a good code
    /// at once, and the greeting and the offer take turns, so a short silence costs a turn, not a wrong verdict.
    /// The long one otherwise.
    private func handshakeDeadline() -> Duration {
        let timing = configuration.timing
        guard !foregroundAttempt else { return timing.foregroundHandshake }
        guard codeOffer != .known, let delay = connection?.roomDelay, delay * 2 <= timing.foregroundHandshake else {
            return timing.handshake
        }
        return timing.foregroundHandshake
    }

    mutating func received(_ bytes: [UInt8]) {
        // In place: a copy of the channel would hold its transport's cipher twice, and the transport would key a
        // new one for the frame (see `SecureChannel.takeSession`).
        guard let outcome = connection?.channel?.receive(bytes) else { return }
        switch outcome {
        case .ignored:
            if !SecureChannel.isBoxShaped(bytes.count) { connection?.junk += 1 }
        case .established:
            handshakeDone()
        case .frame(let frame):
            if connection?.delivered == false {
                connection?.delivered = true
                reconnect.frameDelivered()
            }
            frameArrived(frame)
        }
    }

    mutating func handshakeDone() {
        cancel(.handshake)
        silentHandshakes = 0
        codeOffer.accepted()
        connection?.junk = 0
        connection?.offeredCode = false
        arm(.helloAnswer, after: configuration.timing.helloAnswer)
        identity.payload = []
        connectionCount += 1
        connection?.number = connectionCount
        connection?.stage = .greeting
        let requestIDs = RequestIDCounter(first: configuration.firstRequestID)
        connection?.requestIDs = requestIDs
        log("session", "handshake done: connection \(connectionCount)")
        sendHello()
    }

    /// The path failed (the dial, or the carrier closed under us with the relay's `closeCode` and `closeReason`): end
    /// the connection, and dial again when the policy says.
    mutating func connectionLost(_ reason: SessionError, closeCode: Int?, closeReason: String = "") {
        endConnection(reason: reason, failing: SessionError(.carrierLost, reason.message))
        guard wantsCarrier else { return }
        let jitter = environment.random.nextUnit()
        backOff(reconnect.delay(afterClose: closeCode, reason: closeReason, random: jitter), because: reason)
    }

    /// The box, in its room on a path that works, did not answer the handshake or hello in time, or answered what
    /// does not read: end the connection, and dial again after the handshake's backoff (3 s base), not the path's.
    mutating func boxFailed(_ reason: SessionError) {
        endConnection(reason: reason, failing: SessionError(.carrierLost, reason.message))
        guard wantsCarrier else { return }
        backOff(reconnect.delayAfterBoxFailed(random: environment.random.nextUnit()), because: reason)
    }

    /// Waits `delay` before the next dial, and says so: when, which attempt, and why.
    private mutating func backOff(_ delay: Duration, because reason: SessionError) {
        arm(.redial, after: delay)
        guard delay > .zero else { return }
        let wait = RetryWait(
            nextTryAtMs: environment.nowMs + delay.wholeMilliseconds,
            attempt: reconnect.attempt + 1,
            because: reason
        )
        publish(.connection(.backingOff(wait)))
    }

    /// Ends the carrier (if any): its Noise session first, then the carrier itself, which the runner closes.
    mutating func endConnection(reason: SessionError, failing error: SessionError) {
        guard let ending = connection else { return }
        cancel(.room)
        cancel(.foregroundSilence)
        endNoiseSession(reason: reason.message, failing: error)
        actions.append(.disconnect(generation: ending.generation))
        connection = nil
        publish(.connection(.closed(reason: reason)))
    }

    /// Ends what lived in one Noise session: the read on the wire, the commands, the stream, the session's timers.
    /// Queued reads stay queued.
    mutating func endNoiseSession(reason: String, failing error: SessionError) {
        if connection?.stage == .handshaking, connection?.offeredCode == true { codeOffer.offerUnanswered() }
        for timer in [SessionTimer.handshake, .helloAnswer, .bootHello, .displayFrame, .beatSilence] { cancel(timer) }
        beats = nil
        settleHeldRead(with: error)
        settleCommands(with: error)
        if connection?.returned == true { publish(.streamLost(reason: reason)) }
        connection?.channel = nil
        connection?.number = nil
        connection?.hello = nil
        connection?.subscribed = false
        connection?.returned = false
        connection?.delivered = false
        if connection != nil { connection?.stage = .awaitingRoom }
    }

    /// The box ended the session, or speaks no protocol of ours: close, fail every read, and dial no more until
    /// the next return from the background.
    mutating func haltSession(_ error: SessionError) {
        halt = error
        cancel(.redial)
        endConnection(reason: error, failing: error)
        fail(readers: slot.drainQueue(), with: error)
    }

    mutating func enterBackground() {
        if let ended = stays.leave() {
            log("stays", "stay \(ended.stay): \(ended.requests) request frames")
        }
        cancel(.redial)
        let suspended = SessionError(.carrierLost, "the app went to the background")
        endConnection(reason: SessionError(.cancelled, "background"), failing: suspended)
        // A read still waiting would leave on the next return, however long away, for a name that may no longer
        // hold (a stale frame, then one more for the new name): it fails now, and the return asks by the rules then.
        fail(readers: slot.drainQueue(), with: suspended)
        halt = nil
        reconnect.reset()
        silentHandshakes = 0
        foregroundAttempt = false
        publish(.connection(.idle))
    }
}
