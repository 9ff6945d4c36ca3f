import FTWBus
import FTWClient
import FTWClockSeamTesting
import FTWSeal
import FTWSealTestSupport
import FTWSessionInterface
import FTWSessionTestSupport
import Testing

/// A greeting at the hour's turn knows when its box comes into this hour's room: its 20 s count from there, not from
/// its start, so it waits for the box instead of giving up while the relay has yet to move it; only a box that then
/// stays away fails it, and the message says when it was due.
@Suite struct HourTurnGreetingTests {
    private static let hourStartMs: Int64 = 1_777_780_800_000
    private static let arrival = BoxArrival(movesAtMs: hourStartMs + 121_357, dueByMs: hourStartMs + 141_357)

    @Test func aGreetingAtTheTurnWaitsForTheBoxAndCountsItsDeadlineFromItsArrival() async throws {
        let simulation = Simulation(originMs: Self.hourStartMs + 20_000)
        let (message, endedAtMs) = await simulation.run { simulation in
            let pairing = Pairing(
                store: InMemorySealedStore(
                    keys: InMemoryKeyProvider(key: [UInt8](repeating: 1, count: 32)),
                    events: EventBus()
                ),
                clock: simulation.clock,
                wallClock: simulation.clock
            )
            let dialer = InMemoryDialer { Self.arrival }
            return await withTaskGroup(of: String?.self) { group in
                group.addTask {
                    do {
                        _ = try await pairing.greet(SamplePairing.record, dialer: dialer)
                        return "greeted"
                    } catch {
                        return "\(error)"
                    }
                }
                group.addTask {
                    await simulation.advance(by: .seconds(180))
                    return nil
                }
                var message: String?
                var endedAtMs: Int64?
                for await next in group where next != nil {
                    message = next
                    endedAtMs = simulation.clock.nowMs
                }
                return (message, endedAtMs)
            }
        }
        // The box is due 126.357 s after the hour; the greeting began at 20 s and gave up 20 s after the box was due.
        #expect(endedAtMs == Self.arrival.dueByMs + 20_000)
        #expect(
            message?.hasPrefix(
                "nothing answered within 20.0 seconds of the box's arrival in this hour's room (the relay moves it there"
                    + " at the hour's turn; it was due 20 s ago)"
            ) == true,
            "\(message ?? "")"
        )
    }
}
