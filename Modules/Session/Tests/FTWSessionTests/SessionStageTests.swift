import FTWBoxProtocol
import FTWBus
import FTWSessionInterface
import Testing

@testable import FTWSession

/// The session's moves between the link's stages as functions: one input into a `SessionState` at a stage, the stage
/// it lands in and the actions it asks for out.
@Suite("The session's stages, as transitions")
struct SessionStageTests {
    typealias Bench = SessionStateTests.Bench

    /// A bench whose carrier attached and waits in the room.
    static func inRoom() -> Bench {
        var bench = Bench()
        _ = bench.step { $0.setPhase(.active) }
        _ = bench.step { $0.dialed(1, .success(nil)) }
        return bench
    }

    @Test("idle, a return to the front: dialling, hurried and watched from the return")
    func idleToDialling() {
        var bench = Bench()
        #expect(bench.state.link.stageName == "idle")
        let actions = bench.step { $0.setPhase(.inactive) }
        #expect(actions.armed == [.foregroundSilence] && actions.connects == [1])
        guard case .dialling(let attempt) = bench.state.link else {
            Issue.record("not dialling: \(bench.state.link)")
            return
        }
        #expect(attempt.approach == .init(hurried: true) && attempt.watchdog == .returnToFront)
        #expect(bench.step { $0.setPhase(.active) }.isEmpty, "a glance in front dials nothing more")
    }

    @Test("dialling, the dial fails: backing off, the approach kept for the next dial, which the redial starts")
    func diallingToBackingOffToDialling() throws {
        var bench = Bench()
        _ = bench.step { $0.setPhase(.active) }
        let failed = bench.step { $0.dialed(1, .failure(SessionError(.relayUnreachable, "no route"))) }
        #expect(failed.disconnects == [1] && failed.armed == [.redial])
        #expect(failed.closeCodes == [.relayUnreachable])
        guard case .backingOff(let backingOff) = bench.state.link else {
            Issue.record("not backing off: \(bench.state.link)")
            return
        }
        #expect(backingOff.approach.hurried && backingOff.because.code == .relayUnreachable)
        #expect(bench.step { $0.setPhase(.inactive) }.isEmpty, "a backoff is waited out")
        let token = try #require(bench.state.timers[.redial])
        #expect(bench.step { $0.timerFired(.redial, token: token, arrivingBytes: 0) }.connects == [2])
        #expect(bench.state.link.approach == .init(hurried: true), "the next handshake still gets the short deadline")
    }

    @Test("in the room, ready: handshaking on the short deadline after a return, the approach consumed")
    func roomToHandshaking() {
        var bench = Self.inRoom()
        let actions = bench.step { $0.carrierEvent(.control(RelayCloseCode.ready), generation: 1) }
        #expect(actions.sent.count == 1 && actions.connections == [.handshaking])
        #expect(actions.contains { if case .arm(.handshake, .seconds(3), _) = $0 { true } else { false } })
        #expect(actions.contains { if case .cancel(.foregroundSilence) = $0 { true } else { false } })
        guard case .handshaking(let handshake) = bench.state.link else {
            Issue.record("not handshaking: \(bench.state.link)")
            return
        }
        #expect(handshake.deadline == .seconds(3) && handshake.silentHandshakes == 0)
    }

    @Test("handshaking, a silent deadline: backing off with one silence counted for the next handshake")
    func handshakingToBackingOff() throws {
        var bench = Self.inRoom()
        _ = bench.step { $0.carrierEvent(.control(RelayCloseCode.ready), generation: 1) }
        let token = try #require(bench.state.timers[.handshake])
        let actions = bench.step { $0.timerFired(.handshake, token: token, arrivingBytes: 0) }
        #expect(actions.disconnects == [1] && actions.closeCodes == [.handshakeUnanswered])
        #expect(bench.state.link.stageName == "backingOff")
        #expect(bench.state.link.approach == .init(silentHandshakes: 1))
    }

    @Test("streaming, the background: idle, the carrier closed; the next return dials afresh")
    func streamingToIdle() throws {
        var bench = Bench()
        try bench.stream()
        #expect(bench.state.link.stageName == "streaming")
        let actions = bench.step { $0.setPhase(.background) }
        #expect(actions.disconnects == [1] && actions.connections.last == .idle)
        #expect(bench.state.link.stageName == "idle")
        #expect(bench.step { $0.setPhase(.active) }.connects == [2])
    }

    @Test("streaming, the box ends the session: halted, no dial in front, idle again in the background")
    func streamingToHalted() throws {
        var bench = Bench()
        try bench.stream()
        let terminate = try bench.boxFrame(.sessionTerminate(SessionTerminate(reason: .revoked)))
        let actions = bench.step { $0.carrierEvent(.binary(terminate), generation: 1) }
        #expect(actions.disconnects == [1] && actions.closeCodes == [.terminated])
        #expect(bench.state.link.halt?.code == .terminated)
        #expect(bench.step { $0.setPhase(.inactive) }.connects.isEmpty)
        #expect(bench.step { $0.networkChanged() }.isEmpty)
        _ = bench.step { $0.setPhase(.background) }
        #expect(bench.state.link.stageName == "idle")
        #expect(bench.step { $0.setPhase(.active) }.connects == [2])
    }

    @Test("streaming, a network change: still streaming and watched; silence then redials, hurried")
    func streamingWatched() throws {
        var bench = Bench()
        try bench.stream()
        let changed = bench.step { $0.networkChanged() }
        #expect(changed.armed == [.foregroundSilence] && changed.disconnects.isEmpty)
        #expect(bench.state.link.stageName == "streaming")
        let token = try #require(bench.state.timers[.foregroundSilence])
        let silent = bench.step { $0.timerFired(.foregroundSilence, token: token, arrivingBytes: 0) }
        #expect(silent.disconnects == [1] && silent.connects == [2])
        #expect(silent.closeCodes == [.carrierLost])
        #expect(bench.state.link.approach == .init(hurried: true))
    }

    @Test("dialling, watched, a network change: a new dial on the new path, the watchdog moved to it")
    func diallingRedialled() {
        var bench = Bench()
        _ = bench.step { $0.setPhase(.active) }
        let actions = bench.step { $0.networkChanged() }
        #expect(actions.disconnects == [1] && actions.connects == [2] && actions.armed == [.foregroundSilence])
        guard case .dialling(let attempt) = bench.state.link else {
            Issue.record("not dialling: \(bench.state.link)")
            return
        }
        #expect(attempt.watchdog == .returnToFront && attempt.approach.hurried)
    }

    @Test("any stage, the stop: stopped, and nothing moves it")
    func stopped() throws {
        var bench = Bench()
        try bench.stream()
        let actions = bench.step { $0.stop() }
        #expect(actions.disconnects == [1])
        #expect(bench.state.link.isStopped && bench.state.timers.isEmpty)
        #expect(bench.step { $0.setPhase(.background) }.isEmpty)
    }
}

extension LinkStage {
    /// The case's name, to compare stages whose payloads do not compare.
    var stageName: String {
        switch self {
        case .idle: "idle"
        case .dialling: "dialling"
        case .awaitingRoom: "awaitingRoom"
        case .awaitingBox: "awaitingBox"
        case .handshaking: "handshaking"
        case .greeting: "greeting"
        case .streaming: "streaming"
        case .backingOff: "backingOff"
        case .halted: "halted"
        case .stopped: "stopped"
        }
    }
}
