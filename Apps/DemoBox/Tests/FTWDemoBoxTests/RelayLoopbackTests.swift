import FTWBoxProtocol
import FTWClockSeam
import FTWDemoBox
import FTWFixtures
import FTWNoise
import FTWSessionInterface
import FTWWebSocket
import Testing

/// The relay over real sockets on 127.0.0.1. These tests wait on I/O, each wait capped by a deadline.
@Suite struct RelayLoopbackTests {
    /// A demo box on the real clocks, its relay on an ephemeral port, both running around `body`.
    private static func withRelay(
        _ body: @escaping @Sendable (SimulatedBox, DemoRelayServer) async throws -> Void
    )
        async throws
    {
        // The hour turned at once (a spread of 0, no beat): a run across the top of an hour waits 2.5 s for the box,
        // not up to five minutes; HourTurnTests tests the spread and the beat.
        var configuration = DemoBoxConfiguration()
        configuration.relaySchedule =
            RelaySchedule(epochMs: RelaySchedule.production.epochMs, rotationSpreadMs: 0)
            ?? .production
        configuration.relayBeat = .none
        let box = SimulatedBox(configuration: configuration, clock: ContinuousClock(), wallClock: SystemWallClock())
        let relay = try DemoRelayServer(box: box, port: 0, clock: ContinuousClock())
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await box.run() }
            group.addTask { try await relay.run() }
            defer { group.cancelAll() }
            try await body(box, relay)
            await relay.close()
        }
    }

    /// `work`, or `TimeLimit.Exceeded` naming `what` after a minute of real time.
    private static func within<T: Sendable>(
        _ what: String,
        _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await TimeLimit.within(.seconds(60), on: ContinuousClock(), what, work)
    }

    private static func epoch() -> Int64 {
        Rendezvous.epoch(nowMs: SystemWallClock().nowMs)
    }

    private static func path(_ box: SimulatedBox, epoch: Int64 = epoch()) async -> String {
        "/r/\(epoch)/\(Rendezvous.handle(secret: await box.rendezvousSecret, epoch: epoch))/app"
    }

    private static func connect(_ relay: DemoRelayServer, _ path: String) async throws -> WebSocketConnection {
        try await WebSocketClient.connect(
            host: "127.0.0.1",
            port: relay.port,
            path: path,
            // A minute, like every wait here (docs/tools.md): the relay shares the process's loop with other suites,
            // and a full run on two cores has held it past the default 10 s (CI, 9 of 9 tests at once).
            limits: WebSocketLimits(handshakeTimeout: .seconds(60)),
            clock: ContinuousClock()
        )
    }

    /// How the relay ended the connection: the close code and reason, after any messages before it.
    private static func closing(_ connection: WebSocketConnection) async throws -> (UInt16?, String?) {
        try await within("the relay's close") {
            while true {
                do throws(WebSocketError) {
                    _ = try await connection.receive()
                } catch {
                    return (error.closeCode, error.closeReason)
                }
            }
        }
    }

    @Test func aPhoneJoinsHearsReadyHandshakesAndSaysHelloThroughTheRelay() async throws {
        try await Self.withRelay { box, relay in
            let carrier = SocketCarrier(try await Self.connect(relay, await Self.path(box)))
            let phone = try TestPhone(carrier: carrier, boxKey: box.boxStaticPublicKey)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await carrier.feed() }
                group.addTask { await phone.pump() }
                defer { group.cancelAll() }
                try await Self.within("ready") { await phone.wait { _, events in events.contains(.control("ready")) } }
                try await phone.startHandshake(payload: await box.mintPairingCode())
                try await Self.within("the box's message 2") { await phone.waitUntilConnected() }
                try await phone.send(Samples.hello())
                try await Self.within("snap") {
                    await phone.wait { received, _ in received.contains { $0.type == "snap" } }
                }
                #expect(await phone.received.prefix(2).map(\.type) == ["hello_ok", "snap"])
                #expect(
                    await phone.wireSizes.first.map {
                        [1024, 4096, 16384].map { $0 + NoiseTransport.overhead }.contains($0)
                    } == true
                )
                await carrier.close()
            }
        }
    }

    @Test func aWrongEpochIsClosed4409WithTheRightOne() async throws {
        try await Self.withRelay { box, relay in
            let now = Self.epoch()
            let connection = try await Self.connect(relay, await Self.path(box, epoch: now + 1))
            let (code, reason) = try await Self.closing(connection)
            #expect(code == 4409 && reason == String(now))
        }
    }

    @Test func aBadJoinIsClosed4400() async throws {
        try await Self.withRelay { box, relay in
            let epoch = Self.epoch()
            let handle = Rendezvous.handle(secret: await box.rendezvousSecret, epoch: epoch)
            for path in [
                "/r/\(epoch)/\(String(repeating: "a", count: 32))/app", "/r/\(epoch)/\(handle)/box",
                "/r/x/\(handle)/app",
                "/", "/r/\(epoch)/\(handle)/app/more",
            ] {
                let (code, _) = try await Self.closing(try await Self.connect(relay, path))
                #expect(code == 4400, "\(path)")
            }
        }
    }

    @Test func textFromAPhoneIsClosed4400() async throws {
        try await Self.withRelay { box, relay in
            let connection = try await Self.connect(relay, await Self.path(box))
            #expect(try await Self.within("ready") { try await connection.receive() } == .text("ready"))
            try await connection.send(.text("hello"))
            let (code, _) = try await Self.closing(connection)
            #expect(code == 4400)
        }
    }

    @Test func aMessageOverTheRelaysMaximumIsClosed4400() async throws {
        try await Self.withRelay { box, relay in
            let connection = try await Self.connect(relay, await Self.path(box))
            try await connection.send(.binary([UInt8](repeating: 7, count: 65_537)))
            let (code, _) = try await Self.closing(connection)
            #expect(code == 4400)
        }
    }

    @Test func aFifthStreamIsClosed4429() async throws {
        try await Self.withRelay { box, relay in
            let path = await Self.path(box)
            var open: [WebSocketConnection] = []
            for _ in 0..<4 {
                let connection = try await Self.connect(relay, path)
                #expect(try await Self.within("ready") { try await connection.receive() } == .text("ready"))
                open.append(connection)
            }
            let (code, reason) = try await Self.closing(try await Self.connect(relay, path))
            #expect(code == 4429 && reason == "streams")
            for connection in open { await connection.close() }
        }
    }

    /// The wall-clock relay judges joins with the same model as the in-process room: its join allowance too.
    @Test func aSpentJoinAllowanceIsClosed4429SlowDown() async throws {
        try await Self.withRelay { box, relay in
            await relay.spendJoinAllowance()
            let (code, reason) = try await Self.closing(try await Self.connect(relay, await Self.path(box)))
            #expect(code == 4429 && reason == "slow down")
        }
    }

    @Test func aRestartClosesEverySocket1001() async throws {
        try await Self.withRelay { box, relay in
            let connection = try await Self.connect(relay, await Self.path(box))
            #expect(try await Self.within("ready") { try await connection.receive() } == .text("ready"))
            await relay.restart()
            let (code, _) = try await Self.closing(connection)
            #expect(code == 1001)
        }
    }

    @Test func theEpochTurningOverClosesEveryStream4410WithTheNewEpoch() async throws {
        try await Self.withRelay { box, relay in
            let old = Self.epoch()
            let connection = try await Self.connect(relay, await Self.path(box, epoch: old))
            #expect(try await Self.within("ready") { try await connection.receive() } == .text("ready"))
            await relay.rotateEpoch()
            let (code, reason) = try await Self.closing(connection)
            #expect(code == 4410 && reason == String(old + 1))
            let (stale, right) = try await Self.closing(try await Self.connect(relay, await Self.path(box, epoch: old)))
            #expect(stale == 4409 && right == String(old + 1))
            let rejoined = try await Self.connect(relay, await Self.path(box, epoch: old + 1))
            #expect(try await Self.within("ready") { try await rejoined.receive() } == .text("ready"))
            await rejoined.close()
        }
    }
}
