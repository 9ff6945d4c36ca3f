import FTWBus
import FTWCache
import FTWClockSeamTesting
import FTWSealInterface
import FTWSealTestSupport
import FTWSessionTestSupport
import Testing

/// The ask as a service: it runs once, a restore never undoes a newer answer, and a write that fails is told.
@Suite struct LiveAskServiceTests {
    @Test func aSecondRunIsRefusedByNameAndTheFirstKeepsAsking() async {
        let world = AskWorld()
        let chargers = world.chargers()
        await world.with([chargers]) { _ in
            await #expect(throws: ServiceError.alreadyRunning("chargers")) { try await chargers.run() }
            chargers.send(.viewAppeared)
            await world.streamReturns()
            #expect(await world.sent() == ["/api/loadpoints"])
        }
    }

    @Test func theRefusalNamesTheServiceInOneLine() {
        #expect(
            ServiceError.alreadyRunning("chargers").description
                == "chargers was asked to run a second time: a service runs once, and the first run goes on"
        )
    }

    @Test func anAnswerRecordedWhileTheLaunchReadIsSuspendedIsKept() async {
        let before = AskWorld()
        let sealed = before.chargers()
        await before.with([sealed]) { _ in
            sealed.send(.viewAppeared)
            await before.streamReturns()
        }
        let laterMs = AskWorld.tenOhOne + 600_000
        let world = AskWorld(originMs: laterMs, disk: before.disk)
        let held = HeldReadStore(world.store)
        let chargers = world.chargers(store: held)
        let log = chargers.events.subscribe()
        await world.simulation.run { simulation in
            await world.answerEverything()
            let heldReads = await held.race(chargers, settle: simulation.settle) {
                chargers.send(.viewAppeared)
                await world.streamReturns()
            }
            #expect(heldReads == 1)
        }
        #expect(await chargers.stored?.askedAtMs == laterMs)
        chargers.events.finish()
        let restored = await log.reduce(into: 0) { if case .restored = $1 { $0 += 1 } }
        #expect(restored == 0)
    }

    @Test func anAnswerThatCannotBeSealedIsToldAndStillShown() async {
        let world = AskWorld()
        let chargers = world.chargers(store: InMemorySealedStore(keys: FailingKeyProvider(), events: EventBus()))
        let log = chargers.events.subscribe()
        await world.with([chargers]) { _ in
            chargers.send(.viewAppeared)
            await world.streamReturns()
        }
        chargers.events.finish()
        let notKept = await log.reduce(into: [SealError]()) { if case .notKept(let error) = $1 { $0.append(error) } }
        #expect(notKept == [SealError(.keyUnavailable, "locked")])
        #expect(await chargers.stored?.answer == "chargers answered under chargers")
    }
}
