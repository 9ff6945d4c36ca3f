import FTWBus
import FTWSessionInterface
import Testing

@testable import FTWSession

/// The silence judgements as functions: what was seen when a deadline passed in, the verdict out.
@Suite("The silence policy, as functions")
struct SilencePolicyTests {
    static let policy = SilencePolicy(timing: SessionConfiguration.Timing(), silencesMeaningRefusal: 2)

    static func seen(junk: Int = 0, arriving: Int = 0, roomDelay: Duration? = nil) -> SilencePolicy.Seen {
        SilencePolicy.Seen(
            step: .handshake,
            deadline: .seconds(3),
            junk: junk,
            arrivingBytes: arriving,
            roomDelay: roomDelay
        )
    }

    @Test(
        "junk is the box misbehaving, bytes on their way or a slow relay a slow link; only a quiet, quick link counts"
    )
    func unclear() {
        #expect(Self.policy.unclear(Self.seen(junk: 2, arriving: 5))?.code == .boxMisbehaved)
        #expect(
            Self.policy.unclear(Self.seen(junk: 1))?.message
                == "the box sent what it should not: 1 message no box sends, and no answer to the handshake within 3.0 seconds"
        )
        #expect(Self.policy.unclear(Self.seen(arriving: 5))?.code == .slowLink)
        #expect(Self.policy.unclear(Self.seen(roomDelay: .milliseconds(1_501)))?.code == .slowLink)
        #expect(
            Self.policy.unclear(Self.seen(roomDelay: .milliseconds(1_500))) == nil,
            "half the deadline still counts"
        )
        #expect(Self.policy.unclear(Self.seen()) == nil)
    }

    @Test(
        "a silence that counts is read by the pairing code's rules",
        arguments: [
            (CodeOffer.offer, SessionError.Code.handshakeUnanswered, CodeOffer.greetFirst(heard: true)),
            (.greetFirst(heard: false), .handshakeUnanswered, .offer),
            (.greetFirst(heard: true), .refused, .greetFirst(heard: true)),
        ]
    )
    func codeRules(code: CodeOffer, verdict: SessionError.Code, after: CodeOffer) {
        let judged = Self.policy.handshake(Self.seen(), code: code, silentBefore: 0)
        #expect(judged.code == after)
        switch judged.verdict {
        case .silence(let reason, let silences): #expect(reason.code == verdict && silences == 0)
        case .refusal(let reason): #expect(reason.code == verdict && code == .greetFirst(heard: true))
        case .unclear: Issue.record("a quiet link's silence is clear")
        }
    }

    @Test("a known device's silences: once a busy box, the threshold in a row a refusal (still a redial, not a halt)")
    func knownDevice() {
        let first = Self.policy.handshake(Self.seen(), code: .known, silentBefore: 0)
        #expect(first.verdict == .silence(Self.policy.knownDevice(silences: 1), silentHandshakes: 1))
        #expect(Self.policy.knownDevice(silences: 1).code == .handshakeUnanswered)
        let second = Self.policy.handshake(Self.seen(), code: .known, silentBefore: 1)
        guard case .silence(let reason, 2) = second.verdict else {
            Issue.record("not a second silence: \(second.verdict)")
            return
        }
        #expect(reason.code == .refused)
        #expect(reason.message.contains("left 2 handshakes in a row unanswered"))
    }

    @Test("an unclear silence leaves the pairing code where it was and starts the run of silences again")
    func unclearKeepsTheCode() {
        let judged = Self.policy.handshake(Self.seen(arriving: 1), code: .offer, silentBefore: 1)
        #expect(judged.code == .offer)
        guard case .unclear(let reason) = judged.verdict else {
            Issue.record("not unclear: \(judged.verdict)")
            return
        }
        #expect(reason.code == .slowLink)
    }

    @Test("hello: junk or bytes on their way are no silence; otherwise the box did not answer hello")
    func hello() {
        #expect(Self.policy.hello(junk: 0, arrivingBytes: 0).code == .helloUnanswered)
        #expect(Self.policy.hello(junk: 0, arrivingBytes: 100).code == .slowLink)
        #expect(Self.policy.hello(junk: 1, arrivingBytes: 0).code == .boxMisbehaved)
    }

    @Test("the watchdog: nothing heard redials, saying from when; bytes on their way are a path that lives")
    func watchdog() {
        #expect(
            Self.policy.watchdog(from: .networkChange, arrivingBytes: 0)?.message
                == "nothing arrived within 2.5 seconds of the network change: dialling again"
        )
        #expect(Self.policy.watchdog(from: .returnToFront, arrivingBytes: 1) == nil)
    }

    @Test(
        "the short deadline after a return, and for an enrolment over a quick link; the long one otherwise",
        arguments: [
            (true, true, Duration?.none, Duration.seconds(3)),
            (false, true, .milliseconds(100), .seconds(12)),
            (false, false, .milliseconds(1_500), .seconds(3)),
            (false, false, .milliseconds(1_501), .seconds(12)),
            (false, false, nil, .seconds(12)),
        ]
    )
    func handshakeDeadline(hurried: Bool, codeKnown: Bool, roomDelay: Duration?, deadline: Duration) {
        #expect(Self.policy.handshakeDeadline(hurried: hurried, codeKnown: codeKnown, roomDelay: roomDelay) == deadline)
    }
}
