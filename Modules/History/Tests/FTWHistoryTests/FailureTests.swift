import FTWBoxProtocol
import FTWBus
import FTWCache
import FTWClockSeam
import FTWClockSeamTesting
import FTWHistory
import FTWHistoryTestSupport
import FTWSessionInterface
import FTWSessionTestSupport
import Synchronization
import Testing

/// A read that fails records nothing and is never asked again on the beat: a return or someone looking after the
/// failure asks again (each time: there is no backoff), a return queued before it does not, and the tiles already
/// drawn stay.
@Suite struct FailureTests {
    @Test func aLostCarrierRecordsNothingAndTheReturnAsksAgain() async {
        let world = HistoryWorld()
        defer { world.removeFolder() }
        let run = await world.run { _ in
            await world.session.hold()
            await world.streamReturns()
            await world.session.drop()
            await world.simulation.settle()
            #expect(await world.tilesFileSize() == nil, "nothing recorded")
            await world.session.release()
            await world.streamReturns()
        }
        let failures = run.events.compactMap { event -> SessionError.Code? in
            if case .failed(_, let error) = event { return error.code }
            return nil
        }
        #expect(failures == [.carrierLost])
        let queries = await world.queries()
        #expect(queries.count == 3)
        #expect(queries.first?.fromMs == queries.dropFirst().first?.fromMs, "the tile still filling, again")
        #expect(await run.model.window.newestValueMs == HistoryWorld.tenOhOne - HistoryWorld.minute)
    }

    @Test func aTimeoutIsNotAskedAgainOnTheBeatButWhenANodeOpensAgainAndTheDrawnTilesStay() async {
        let world = HistoryWorld()
        defer { world.removeFolder() }
        let failing = Mutex(false)
        let clock = world.simulation.clock
        await world.session.setAnswer { request in
            guard case .history(let query) = request else { return .failure(SessionError(.box, "not scripted")) }
            if failing.withLock({ $0 }) { return .failure(SessionError(.timeout, "the box stayed silent")) }
            return .success(.history(ScriptedBox().answer(query, nowMs: clock.nowMs)))
        }
        let run = await world.run(box: nil) { model in
            await world.streamReturns()
            let primed = await model.window.newestValueMs
            let afterPriming = await world.queries().count
            failing.withLock { $0 = true }
            model.send(.nodeViewAppeared)
            await world.streaming(for: 5 * 60)
            #expect(await world.queries().count == afterPriming + 1, "the turn of the name asked once, the beat never")
            #expect(await model.window.newestValueMs == primed, "the tiles already drawn stay")
            #expect(await model.window.sample(of: "grid_w", atMs: HistoryWorld.tenOhOne - 600_000) != .absent)
            failing.withLock { $0 = false }
            await world.streaming(for: 60)
            #expect(await world.queries().count == afterPriming + 1, "a failed read is not asked on the beat")
            model.send(.nodeViewGone)
            model.send(.nodeViewAppeared)
            await world.streaming(for: 2)
            #expect(await world.queries().count == afterPriming + 2, "someone starts looking again: asked again")
        }
        let name = HistoryModel.Configuration().name(atMs: world.simulation.clock.nowMs)
        #expect(await run.model.window.askedUnder == name)
    }

    /// Found on a slow relay: a history read past the 20 s deadline was asked again on every live frame after it,
    /// one `hist.query` every ~20 s for as long as the stream ran, with no view open (30 in 10 minutes).
    @Test func aTimedOutPrimingIsNotAskedAgainByTenMinutesOfLiveFramesOnlyByEachReturn() async {
        let world = HistoryWorld()
        defer { world.removeFolder() }
        await world.session.setAnswer { _ in .failure(SessionError(.timeout, "the box stayed silent for 20 s")) }
        await world.run(box: nil) { _ in
            await world.streamReturns()
            await world.streaming(for: 10 * 60)
            #expect(await world.queries().count == 1)
            await world.streamReturns()
            #expect(await world.queries().count == 2, "the stream came back: someone starts looking again")
            await world.streaming(for: 30)
            await world.streamReturns()
            #expect(await world.queries().count == 3, "a second failure in a row hides no backoff")
        }
    }

    /// Found on a slow relay: the stream's return, published after the first live frame, waited behind the priming
    /// read; handled after that read timed out, it asked again 16 ms later, with no view, no redial and the same name.
    @Test func theReturnQueuedBehindAFailedPrimingIsNoNewLook() async {
        let world = HistoryWorld()
        defer { world.removeFolder() }
        await world.session.setAnswer { _ in .failure(SessionError(.timeout, "the box stayed silent for 20 s")) }
        await world.run(box: nil) { model in
            await world.session.open(hello: SampleHello.make())
            await world.frame()
            await world.session.sendReads()
            await world.streaming(for: 10 * 60)
            #expect(await world.queries().count == 1, "the return came before the failure; the beat never asks")
            model.send(.nodeViewAppeared)
            await world.frame()
            #expect(await world.queries().count == 2, "a node view that appears after the failure asks again")
        }
    }

    /// Found by going to the background while the priming read was still queued and coming back 28 s later: the
    /// return never primed the history (a second failed ask in the background had started a hidden backoff).
    @Test func aReturnAfterAPrimingThatFailedInTheBackgroundPrimes() async {
        let world = HistoryWorld()
        defer { world.removeFolder() }
        await world.run { _ in
            await world.session.open(hello: SampleHello.make())
            await world.frame()
            await world.background(for: .seconds(28))
            #expect(await world.queries().isEmpty, "the priming read never left")
            await world.streamReturns()
            await world.streaming(for: 5)
            #expect(await world.queries().count == 2, "the return primes: the tile still filling, then the rest")
        }
    }

    /// cache.md §1: a box that refuses `hist.query` outright is asked once per build, not at each five-minute turn
    /// with a node open (6 requests in a half-hour stay), and the verdict is sealed: a relaunch asks nothing.
    @Test func aRefusalIsNotAskedAgainUnderTheSameBuild() async {
        let world = HistoryWorld()
        defer { world.removeFolder() }
        await world.run(box: nil) { model in
            await world.streamReturns()
            model.send(.nodeViewAppeared)
            await world.streaming(for: 30 * 60)
            #expect(await world.queries().count == 1)
        }
        let relaunched = HistoryWorld(originMs: HistoryWorld.tenOhOne + 40 * 60_000, folder: world.folder)
        await relaunched.run(box: nil) { model in
            await relaunched.streamReturns()
            model.send(.nodeViewAppeared)
            await relaunched.streaming(for: 10 * 60)
            #expect(await relaunched.queries().isEmpty, "the relaunch read the sealed verdict")
        }
    }
}
