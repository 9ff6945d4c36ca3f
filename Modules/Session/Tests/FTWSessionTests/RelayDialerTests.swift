import FTWBus
import FTWClockSeam
import FTWClockSeamTesting
import FTWFixtures
import FTWNoise
import FTWSession
import FTWSessionInterface
import FTWWebSocket
import Testing

/// `RelayDialer` over real sockets against a hand-made relay: the room's path, the relay's words and binary as
/// carrier events, its close codes, and which epoch corrections it adopts. Each wait is capped by a deadline.
@Suite struct RelayDialerTests {
    private static let secret = [UInt8](repeating: 0x33, count: 32)
    /// 2025-12-02 10:00 UTC: epoch 490186.
    private static let wallClock = ManualClock(originMs: 1_764_669_600_000)
    private static let epoch = Rendezvous.epoch(nowMs: wallClock.nowMs)

    /// A relay that records the path asked for, says `ready`, sends `[1, 2, 3]`, echoes one message, then closes
    /// with `code` and `reason`.
    private static func withRelay(
        closing code: UInt16,
        reason: String,
        _ body: @Sendable (RelayDialer, Tally<String>) async throws -> Void
    ) async throws {
        let paths = Tally<String>()
        let server = try WebSocketServer(port: 0, limits: WebSocketLimits(), clock: ContinuousClock())
        let dialer = RelayDialer(
            host: "127.0.0.1",
            port: server.port,
            rendezvousSecret: secret,
            clock: ContinuousClock(),
            wallClock: wallClock
        )
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await server.run { request in
                    paths.note(request.path)
                    guard let connection = try? request.accept() else { return }
                    try? await connection.send(.text("ready"))
                    try? await connection.send(.binary([1, 2, 3]))
                    if let echo = try? await connection.receive() { try? await connection.send(echo) }
                    await connection.close(code: code, reason: reason)
                }
            }
            defer { group.cancelAll() }
            try await body(dialer, paths)
            await server.close()
        }
    }

    /// Every event of `carrier` until it finishes, sending `[9, 9]` once the relay's binary arrived.
    private static func events(of carrier: any Carrier) async throws -> [CarrierEvent] {
        try await TimeLimit.within(.seconds(60), on: ContinuousClock(), "the relay's events") {
            var events: [CarrierEvent] = []
            for await event in carrier.incoming {
                events.append(event)
                if event == .binary([1, 2, 3]) { try await carrier.send([9, 9]) }
            }
            return events
        }
    }

    @Test func theDialerJoinsThisHoursRoomAndTurnsTheSocketIntoCarrierEvents() async throws {
        try await Self.withRelay(closing: 4410, reason: "\(Self.epoch + 1)") { dialer, paths in
            let carrier = try await dialer.dial()
            let events = try await Self.events(of: carrier)
            #expect(
                events == [
                    .control("ready"), .binary([1, 2, 3]), .binary([9, 9]),
                    .closed(code: 4410, reason: "\(Self.epoch + 1)"),
                ]
            )
            let handle = Rendezvous.handle(secret: Self.secret, epoch: Self.epoch)
            #expect(paths.seen == ["/r/\(Self.epoch)/\(handle)/app"])
            #expect(dialer.epoch == Self.epoch + 1)
            #expect(
                dialer.path
                    == "/r/\(Self.epoch + 1)/\(Rendezvous.handle(secret: Self.secret, epoch: Self.epoch + 1))/app"
            )
            await carrier.close()
        }
    }

    @Test(arguments: [
        ("\(RelayDialerTests.epoch - 1)", RelayDialerTests.epoch - 1),
        ("epoch \(RelayDialerTests.epoch + 1)", RelayDialerTests.epoch + 1),
        ("\(RelayDialerTests.epoch + 2)", RelayDialerTests.epoch),
        ("\(RelayDialerTests.epoch - 5)", RelayDialerTests.epoch),
        ("99999999999999999999", RelayDialerTests.epoch),
        ("soon", RelayDialerTests.epoch),
    ])
    func aCorrectionIsAdoptedOnlyWithinOneEpochOfOurs(reason: String, adopted: Int64) async throws {
        try await Self.withRelay(closing: 4409, reason: reason) { dialer, _ in
            let carrier = try await dialer.dial()
            _ = try await Self.events(of: carrier)
            #expect(dialer.epoch == adopted)
            await carrier.close()
        }
    }

    @Test func aCloseOtherThanACorrectionChangesNoEpoch() async throws {
        try await Self.withRelay(closing: 4429, reason: "\(Self.epoch + 1)") { dialer, _ in
            let carrier = try await dialer.dial()
            let events = try await Self.events(of: carrier)
            #expect(events.last == .closed(code: 4429, reason: "\(Self.epoch + 1)"))
            #expect(dialer.epoch == Self.epoch)
            await carrier.close()
        }
    }

    @Test func aRelayThatIsNotThereFailsTheDialTyped() async throws {
        try await LoopbackTCP.withRefusingPort { port in
            let dialer = RelayDialer(
                host: "127.0.0.1",
                port: port,
                rendezvousSecret: Self.secret,
                clock: ContinuousClock(),
                wallClock: Self.wallClock
            )
            let error = await #expect(throws: SessionError.self) { _ = try await dialer.dial() }
            #expect(error?.code == .relayUnreachable)
            #expect(error?.message == "no relay answers at 127.0.0.1:\(port): connect: Connection refused")
            let cause = error?.cause as? WebSocketError
            #expect(cause?.code == .connectFailed, "the socket's own error is kept as cause")
        }
    }
}
