import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWCrypto
import FTWNoise
import FTWSessionInterface
import FTWSessionTestSupport
import Testing

@testable import FTWSession

/// The session's rules as functions: one input into `SessionState`, the actions out. No socket, no clock, no task:
/// the wall clock and the jitter are fixed, and the box's side of the handshake is a Noise responder in memory.
@Suite("SessionState transitions")
struct SessionStateTests {
    /// A wall clock that says one time.
    struct FixedWallClock: WallClock {
        var nowMs: Int64 = 1_796_000_000_000
    }

    /// The state under test and the box's end of its Noise session.
    struct Bench {
        static let boxPrivateKey = [UInt8](repeating: 0x11, count: 32)
        static let boxPublicKey = (try? X25519.publicKey(privateKey: boxPrivateKey)) ?? []

        var state: SessionState
        var box: NoiseSession?

        init(wallClock: any WallClock = FixedWallClock()) {
            let identity = SessionIdentity(
                appStaticPrivateKey: [UInt8](repeating: 0x22, count: 32),
                boxStaticPublicKey: Self.boxPublicKey
            )
            state = SessionState(
                identity: identity,
                configuration: SessionConfiguration(build: "test"),
                environment: SessionEnvironment(
                    wallClock: wallClock,
                    elapsed: { .milliseconds(40) },
                    random: SeededRandomSource(seed: 7)
                )
            )
        }

        /// Runs one transition and returns what it asked for.
        mutating func step(_ transition: (inout SessionState) -> Void) -> [SessionAction] {
            transition(&state)
            return state.takeActions()
        }

        /// In front, dialled, in the room, handshaken and greeted: the stream runs on connection 1.
        mutating func stream() throws {
            _ = step { $0.setPhase(.active) }
            _ = step { $0.dialed(1, .success(nil)) }
            let ready = step { $0.carrierEvent(.control(RelayCloseCode.ready), generation: 1) }
            let message1 = try #require(ready.sent.first)
            var responder = try NoiseHandshake.responder(
                staticPrivateKey: Self.boxPrivateKey,
                prologue: NoiseHandshake.productionPrologue(boxStaticPublicKey: Self.boxPublicKey)
            )
            _ = try responder.readMessage1(message1)
            let (message2, session) = try responder.writeMessage2(payload: [])
            box = session
            let established = step { $0.carrierEvent(.binary(message2), generation: 1) }
            #expect(established.sent.count == 1, "hello goes out once the handshake is done")
            let hello = try boxFrame(.helloOK(SampleHello.make()))
            let greeted = step { $0.carrierEvent(.binary(hello), generation: 1) }
            #expect(greeted.connections.contains { if case .streaming = $0 { true } else { false } })
        }

        /// `message` framed and sealed by the box for this phone's session.
        mutating func boxFrame(_ message: Message, id: UInt32? = nil) throws -> [UInt8] {
            var session = try #require(box)
            defer { box = session }
            return try session.seal(FrameCodec.encode(message, id: id))
        }
    }

    @Test("a return to the front dials once, with the watchdog armed; the same phase again does nothing")
    func returnDials() {
        var bench = Bench()
        let actions = bench.step { $0.setPhase(.active) }
        #expect(actions.connects == [1])
        #expect(actions.armed.contains(.foregroundSilence))
        #expect(actions.connections == [.dialing(attempt: 1)])
        #expect(bench.step { $0.setPhase(.active) }.isEmpty)
    }

    @Test("a live frame from the box is published; another phone's frame in the room changes nothing")
    func foreignFrame() throws {
        var bench = Bench()
        try bench.stream()
        var stranger = try #require(bench.box)
        stranger.sender = NoiseTransport(key: [UInt8](repeating: 0x5c, count: 32))
        let foreign = try stranger.seal(FrameCodec.encode(.tick(Tick(seq: 1, uptimeMs: 5_000)), id: nil))
        let before = bench.state.lastUptimeMs
        #expect(bench.step { $0.carrierEvent(.binary(foreign), generation: 1) }.isEmpty)
        #expect(bench.state.lastUptimeMs == before)
        #expect(bench.state.link.isStreaming)
        let own = try bench.boxFrame(.tick(Tick(seq: 1, uptimeMs: 5_000)))
        let published = bench.step { $0.carrierEvent(.binary(own), generation: 1) }
        #expect(published.telemetry.count == 1)
        #expect(bench.step { $0.carrierEvent(.binary(own), generation: 1) }.isEmpty, "a replay is dropped")
    }

    @Test("a read waits for the stream and one display frame, and fails at its deadline")
    func readDeadline() throws {
        var bench = Bench()
        let id = bench.state.takeWaiterID()
        #expect(bench.step { $0.enqueue(.plan, order: .plan, id: id) }.isEmpty)
        try bench.stream()
        let displayToken = try #require(bench.state.timers[.displayFrame])
        let sent = bench.step { $0.timerFired(.displayFrame, token: displayToken, arrivingBytes: 0) }
        #expect(sent.sent.count == 1)
        #expect(bench.state.asks.map(\.type) == ["plan.get"])
        let deadline = try #require(bench.state.timers[.readDeadline])
        let failed = bench.step { $0.timerFired(.readDeadline, token: deadline, arrivingBytes: 0) }
        #expect(failed.answers.map(\.reader) == [id])
        #expect(failed.answers.first?.code == .timeout)
    }

    @Test("a timer re-armed since it was set wakes to nothing")
    func staleTimer() throws {
        var bench = Bench()
        _ = bench.step { $0.setPhase(.active) }
        let first = try #require(bench.state.timers[.foregroundSilence])
        _ = bench.step { $0.arm(.foregroundSilence, after: .seconds(1)) }
        #expect(bench.step { $0.timerFired(.foregroundSilence, token: first, arrivingBytes: 0) }.isEmpty)
        #expect(bench.state.timers[.foregroundSilence] != nil)
    }

    @Test("the background hangs up, fails waiting reads and cancels the redial")
    func background() throws {
        var bench = Bench()
        try bench.stream()
        let id = bench.state.takeWaiterID()
        _ = bench.step { $0.enqueue(.plan, order: .plan, id: id) }
        let actions = bench.step { $0.setPhase(.background) }
        #expect(actions.disconnects == [1])
        #expect(actions.answers.map(\.reader) == [id])
        #expect(actions.answers.first?.code == .carrierLost)
        #expect(actions.connections.last == .idle)
        #expect(bench.state.timers.isEmpty)
        #expect(bench.step { $0.setPhase(.background) }.isEmpty, "the background again says nothing twice")
        let late = bench.state.takeWaiterID()
        #expect(bench.step { $0.enqueue(.plan, order: .plan, id: late) }.answers.map(\.reader) == [late])
    }

    @Test("a stopped session stays stopped: a phase or a network change after the stop dials nothing and says nothing")
    func stoppedStaysStopped() {
        var bench = Bench()
        _ = bench.step { $0.setPhase(.active) }
        _ = bench.step { $0.stop() }
        let after =
            bench.step { $0.setPhase(.background) } + bench.step { $0.setPhase(.active) }
            + bench.step { $0.networkChanged() }
        #expect(after.connects.isEmpty)
        #expect(after.connections.isEmpty, "no dialling is said when nothing will dial")
        #expect(after.armed.isEmpty)
    }

    @Test("a carrier that closes under the stream ends it and arms one redial")
    func carrierClosed() throws {
        var bench = Bench()
        try bench.stream()
        let actions = bench.step { $0.carrierEvent(.closed(code: 1006, reason: ""), generation: 1) }
        #expect(actions.disconnects == [1])
        #expect(actions.armed == [.redial])
        #expect(bench.state.link.carrier == nil)
        #expect(bench.step { $0.carrierEvent(.binary([1, 2, 3]), generation: 1) }.isEmpty, "a late event is stale")
        let redial = try #require(bench.state.timers[.redial])
        #expect(bench.step { $0.timerFired(.redial, token: redial, arrivingBytes: 0) }.connects == [2])
    }

    @Test("a handshake's deadline is the box's silence only when no bytes of an answer were on their way")
    func handshakeDeadline() throws {
        var bench = Bench()
        _ = bench.step { $0.setPhase(.active) }
        _ = bench.step { $0.dialed(1, .success(nil)) }
        _ = bench.step { $0.carrierEvent(.control(RelayCloseCode.ready), generation: 1) }
        var slow = bench
        let token = try #require(bench.state.timers[.handshake])
        let trickling = slow.step { $0.timerFired(.handshake, token: token, arrivingBytes: 10) }
        #expect(trickling.closeCodes == [.slowLink])
        #expect(slow.state.link.approach?.silentHandshakes == 0)
        let silent = bench.step { $0.timerFired(.handshake, token: token, arrivingBytes: 0) }
        #expect(silent.closeCodes == [.handshakeUnanswered])
        #expect(bench.state.link.approach?.silentHandshakes == 1)
        #expect(silent.armed == [.redial])
    }

    @Test("a command the box does not acknowledge in time fails with E_NO_ACK")
    func commandUnacknowledged() throws {
        var bench = Bench()
        let early = bench.state.takeWaiterID()
        let refused = bench.step {
            $0.startCommand(CommandRequest(op: "site.mode.set", args: [:]), id: early, cancelled: false)
        }
        #expect(refused.settled.map(\.command) == [early], "no stream: a command is never kept for later")
        try bench.stream()
        let id = bench.state.takeWaiterID()
        let sent = bench.step {
            $0.startCommand(CommandRequest(op: "site.mode.set", args: [:]), id: id, cancelled: false)
        }
        #expect(sent.sent.count == 1)
        let cmdId = try #require(bench.state.commands[id]?.cmdId)
        let token = try #require(bench.state.timers[.commandAck(cmdId)])
        let settled = bench.step { $0.timerFired(.commandAck(cmdId), token: token, arrivingBytes: 0) }
        #expect(settled.settled.map(\.command) == [id])
        #expect(settled.settled.first?.code == .timeout)
        #expect(bench.state.commands.isEmpty)
    }
}

extension [SessionAction] {
    var sent: [[UInt8]] { compactMap { if case .send(let bytes) = $0 { bytes } else { nil } } }
    var connects: [Int] { compactMap { if case .connect(let generation) = $0 { generation } else { nil } } }
    var disconnects: [Int] { compactMap { if case .disconnect(let generation) = $0 { generation } else { nil } } }
    var armed: [SessionTimer] { compactMap { if case .arm(let timer, _, _) = $0 { timer } else { nil } } }
    var connections: [ConnectionState] {
        compactMap { if case .publish(.connection(let state)) = $0 { state } else { nil } }
    }
    var closeCodes: [SessionError.Code] {
        connections.compactMap { if case .closed(let reason) = $0 { reason.code } else { nil } }
    }
    var telemetry: [TelemetryFrame] {
        compactMap { if case .publish(.telemetry(let frame)) = $0 { frame } else { nil } }
    }
    var answers: [(reader: Int, code: SessionError.Code?)] {
        compactMap {
            guard case .answer(let reader, let result) = $0 else { return nil }
            if case .failure(let error) = result { return (reader, error.code) }
            return (reader, nil)
        }
    }
    var settled: [(command: Int, code: SessionError.Code?)] {
        compactMap {
            guard case .settle(let command, let result) = $0 else { return nil }
            if case .failure(let error) = result { return (command, error.code) }
            return (command, nil)
        }
    }
}
