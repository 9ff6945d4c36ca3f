import Bus
import ClockSeamTesting
import FTWClient
import Seal
import SealTestSupport
import SessionInterface
import SessionTestSupport
import Testing

/// A greeting at the hour's turn whose deadline passes before the relay has moved the box into this hour's room says
/// when the box is due, instead of nothing at all.
@Suite struct HourTurnGreetingTests {
    private static let hourStartMs: Int64 = 1_777_780_800_000
    private static let arrival = BoxArrival(movesAtMs: hourStartMs + 121_357, dueByMs: hourStartMs + 126_357)

    @Test func aGreetingThatTheTurnOutlastsSaysWhenTheBoxIsDue() async throws {
        let simulation = Simulation(originMs: Self.hourStartMs + 20_000)
        let message = await simulation.run { simulation in
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
                    await simulation.advance(by: .seconds(30))
                    return nil
                }
                var message: String?
                for await next in group where next != nil { message = next }
                return message
            }
        }
        #expect(
            message?.hasSuffix(
                "nothing answered within 20.0 seconds: the relay moves the box to this hour's room at the hour's turn,"
                    + " and it is due there in 87 s; try again then"
            ) == true,
            "\(message ?? "")"
        )
    }
}
