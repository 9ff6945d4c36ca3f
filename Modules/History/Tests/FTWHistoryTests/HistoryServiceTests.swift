import FTWBus
import FTWCache
import FTWClockSeamTesting
import FTWHistory
import FTWHistoryTestSupport
import FTWSealInterface
import FTWSealTestSupport
import FTWSessionTestSupport
import Foundation
import Testing

/// The history as a service: it runs once, a launch read never undoes a newer window, and a window that cannot be
/// sealed is told.
@Suite struct HistoryServiceTests {
    private func model(_ world: HistoryWorld, store: any SealedStore) -> HistoryModel {
        HistoryModel(
            site: HistoryWorld.site,
            store: store,
            session: world.session,
            sessionEvents: world.session.events,
            clock: world.simulation.clock,
            wallClock: world.simulation.clock,
            policy: world.policy
        )
    }

    @Test func aSecondRunIsRefusedByNameAndTheFirstKeepsLoading() async {
        let world = HistoryWorld()
        defer { world.removeFolder() }
        await world.run { model in
            await #expect(throws: ServiceError.alreadyRunning("history")) { try await model.run() }
            await world.streamReturns()
        }
        #expect(await world.queries().count == 2, "the first run primed the window: today, then the rest")
    }

    @Test func aWindowLoadedWhileTheLaunchReadIsSuspendedIsKept() async {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("history-race-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        await Priming.prime(in: folder, atMs: HistoryWorld.tenOhOne)
        let laterMs = HistoryWorld.tenOhOne + 30 * HistoryWorld.minute
        let world = HistoryWorld(originMs: laterMs, folder: folder)
        let held = HeldReadStore(world.store)
        let history = model(world, store: held)
        await world.script(ScriptedBox())
        await world.simulation.run { simulation in
            let heldReads = await held.race(history, settle: simulation.settle) {
                await world.streamReturns()
            } afterwards: {
                await world.frame()
            }
            #expect(heldReads == 1)
        }
        let window = await history.window
        #expect(window.askedUnder == HistoryModel.Configuration().name(atMs: laterMs))
        #expect(window.newestValueMs ?? 0 > HistoryWorld.tenOhOne)
    }

    @Test func aWindowThatCannotBeSealedIsToldOnTheBus() async {
        let world = HistoryWorld()
        defer { world.removeFolder() }
        let history = model(world, store: InMemorySealedStore(keys: FailingKeyProvider(), events: EventBus()))
        let events = history.events.subscribe()
        await world.script(ScriptedBox())
        await world.with(history) { _ in await world.streamReturns() }
        history.events.finish()
        let notKept = await drained(events).compactMap { if case .notKept(let error) = $0 { error } else { nil } }
        #expect(notKept == [SealError(.keyUnavailable, "locked")])
    }
}
