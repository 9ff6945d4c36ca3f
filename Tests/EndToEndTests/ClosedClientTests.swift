import FTWClient
import FTWClockSeamTesting
import Testing

/// A closed client refuses what it is asked, through its public face on the simulated demo box (issue 32): an
/// observation ends at once, whether it was running at the close or started after it; `run()` and `setPhase(_:)`
/// throw `HeadlessClientError.closed` (not a service's "asked to run a second time"); a second close is fine.
@Suite struct ClosedClientTests {
    /// One stay that went live, closed; hands back the client.
    private static func closedAfterAStay(in world: ClientWorld) async throws -> HeadlessClient {
        let client = world.client()
        _ = await client.launch()
        try await world.stay(of: client) {
            try await client.setPhase(.active)
            client.show(.now)
            await world.simulation.advance(by: .seconds(5))
        }
        return client
    }

    @Test func anObservationRunningAtTheCloseEnds() async throws {
        try await ClientWorld.run { world in
            let client = world.client()
            _ = await client.launch()
            let recorded = Recorded<HomeScreen>()
            let observer = Task { await recorded.follow(client.observeHomeScreen()) }
            try await world.stay(of: client) {
                try await client.setPhase(.active)
                client.show(.now)
                await world.simulation.advance(by: .seconds(5))
            }
            await observer.value
            #expect(!recorded.all.isEmpty, "it gave values until the close")
        }
    }

    @Test func anObservationStartedAfterTheCloseGivesNothing() async throws {
        try await ClientWorld.run { world in
            let client = try await Self.closedAfterAStay(in: world)
            var screens = client.observeHomeScreen().makeAsyncIterator()
            #expect(await screens.next() == nil)
            var history = client.observeHistory().makeAsyncIterator()
            #expect(await history.next() == nil)
        }
    }

    @Test func runAndSetPhaseAfterTheCloseThrowClosed() async throws {
        try await ClientWorld.run { world in
            let client = try await Self.closedAfterAStay(in: world)
            await #expect(throws: HeadlessClientError.closed) { try await client.run() }
            await #expect(throws: HeadlessClientError.closed) { try await client.setPhase(.active) }
            await #expect(throws: HeadlessClientError.closed) { try await client.run { _ in } }
            let error = await #expect(throws: HeadlessClientError.self) { try await client.run() }
            #expect(error?.code == .closed)
            #expect(
                "\(HeadlessClientError.closed)"
                    == "this client was closed: it does not run or follow the scene again; a new client on the same"
                    + " folder does"
            )
        }
    }

    @Test func aClientClosedBeforeItRanDoesNotRun() async throws {
        try await ClientWorld.run { world in
            let client = world.client()
            _ = await client.launch()
            async let closing: Void = client.close()
            await world.simulation.advance(by: .seconds(10))
            await closing
            await #expect(throws: HeadlessClientError.closed) { try await client.run() }
        }
    }

    @Test func closingTwiceIsFine() async throws {
        try await ClientWorld.run { world in
            let client = try await Self.closedAfterAStay(in: world)
            await client.close()
            await client.close()
            var screens = client.observeHomeScreen().makeAsyncIterator()
            #expect(await screens.next() == nil)
        }
    }
}
