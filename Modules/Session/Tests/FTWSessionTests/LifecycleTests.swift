import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWClockSeamTesting
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWSessionTestSupport
import Testing

/// The scene phases (cache.md §3): dial at inactive on the way back, keep the session through a glance, close it
/// only in the background, and never leave a carrier attached there.
@Suite struct LifecycleTests {
    @Test func aReturnDialsAtInactiveBeforeTheAppIsActive() async throws {
        try await SessionWorld.run { world in
            await world.session.setPhase(.inactive)
            await world.simulation.settle()
            #expect(world.dialer.dialCount == 1)
            guard case .streaming = await world.session.connectionState else {
                Issue.record("no stream at inactive")
                return
            }
        }
    }

    @Test func aGlanceKeepsTheSessionAndItsRate() async throws {
        try await SessionWorld.run { world in
            await world.comeToFront()
            for phase in [ScenePhase.inactive, .active, .inactive, .active] {
                await world.session.setPhase(phase)
                await world.advance(by: .seconds(10))
            }
            #expect(world.dialer.dialCount == 1)
            let received = await world.box.received
            #expect(received.map(\.message.type) == ["hello"])
            guard case .hello(let hello) = received.first?.message else { return }
            #expect(hello.sub == Sub(bucket: 512, hz: 1))
            #expect(await world.recorder.streamChanges == [.streamReturned(connection: 1)])
        }
    }

    @Test func onlyTheBackgroundClosesTheSessionAndLosesTheStream() async throws {
        try await SessionWorld.run { world in
            await world.comeToFront()
            await world.session.setPhase(.background)
            await world.simulation.settle()
            #expect(world.dialer.carriers.allSatisfy { $0.isClosed })
            #expect(
                await world.recorder.streamChanges == [
                    .streamReturned(connection: 1), .streamLost(reason: "background"),
                ]
            )
            #expect(await world.session.connectionState == .idle)
            await world.advance(by: .seconds(120))
            #expect(world.dialer.dialCount == 1)
        }
    }

    /// Found by the soak: reads queued behind one on the wire (a pull to refresh on the home screen) when the app went
    /// to the background waited in the session and left on the next return, minutes later, for names that no longer
    /// held; the models then asked again under the new ones.
    @Test func theBackgroundFailsTheQueuedReadsSoNoneLeavesOnTheNextReturn() async throws {
        try await SessionWorld.run(setUp: ScriptedBox.holdsAnswers) { world in
            await world.comeToFront()
            let results = try await world.withReads { reads in
                await reads.ask(Reads.chargers, order: .chargers)
                await world.advance(by: .seconds(1))
                await reads.ask(Reads.plan, order: .plan)
                await world.session.setPhase(.background)
                await world.simulation.settle()
                await world.box.configure { $0.holding = false }
                await world.advance(by: .seconds(300))
                await world.comeToFront()
                await world.advance(by: .seconds(2))
            }
            #expect(await world.box.requests.map(\.read) == [Reads.chargers])
            #expect(await results.errorCodes(of: Reads.chargers) == [.carrierLost])
            #expect(await results.errorCodes(of: Reads.plan) == [.carrierLost])
        }
    }

    /// Found by the soak: a model that heard the stream return just as the app went to the background asked for its
    /// window there; the read waited an hour and left on the next return for the hour-old window.
    /// (It used to wait for the return; the return's own evaluation asks what is still wanted, by the name then.)
    @Test func aReadAskedInTheBackgroundFailsAtOnceAndNeverLeaves() async throws {
        try await SessionWorld.run { world in
            await world.comeToFront()
            await world.session.setPhase(.background)
            let results = try await world.withReads { reads in
                await reads.ask(Reads.plan, order: .plan)
                await world.advance(by: .seconds(3600))
                await world.session.setPhase(.inactive)
                await world.advance(by: .seconds(1))
            }
            #expect(await results.errorCodes(of: Reads.plan) == [.carrierLost])
            #expect(await world.box.requests.isEmpty)
        }
    }

    @Test func aBackgroundDuringAPendingDialCancelsItAndAttachesNothing() async throws {
        try await SessionWorld.run { world in
            world.dialer.hold(honouringCancellation: true)
            await world.session.setPhase(.inactive)
            await world.simulation.settle()
            #expect(world.dialer.heldCount == 1)
            await world.session.setPhase(.background)
            await world.simulation.settle()
            #expect(world.dialer.heldCount == 0)
            #expect(world.dialer.carriers.isEmpty)
            await world.advance(by: .seconds(120))
            #expect(world.dialer.dialCount == 1)
            #expect(await world.box.carrierCount == 0)
            #expect(
                await world.recorder.connectionStates == [
                    .dialing(attempt: 1), .closed(reason: SessionError(.cancelled, "background")), .idle,
                ]
            )
        }
    }

    @Test func aDialThatFinishesAfterTheBackgroundClosesItsCarrierUnused() async throws {
        try await SessionWorld.run { world in
            world.dialer.hold(honouringCancellation: false)
            await world.session.setPhase(.inactive)
            await world.simulation.settle()
            await world.session.setPhase(.background)
            await world.simulation.settle()
            world.dialer.release()
            await world.advance(by: .seconds(5))
            let carriers = world.dialer.carriers
            #expect(carriers.count == 1)
            #expect(carriers.allSatisfy { $0.isClosed })
            #expect(carriers.map(\.sent.messages) == [0])
            #expect(await world.box.handshakePayloads.isEmpty)
        }
    }

    @Test func eachStayCountsItsRequestFramesAndAReturnsReadsAtInactiveBelongToIt() async throws {
        try await SessionWorld.run { world in
            await world.comeToFront()
            _ = await world.read(Reads.chargers, order: .chargers)
            _ = await world.read(Reads.plan, order: .plan)
            await world.session.setPhase(.background)
            await world.advance(by: .seconds(30))
            await world.session.setPhase(.inactive)
            _ = await world.read(Reads.chargers, order: .chargers)
            await world.session.setPhase(.active)
            await world.session.setPhase(.background)
            await world.advance(by: .seconds(30))
            await world.comeToFront()
            await world.session.setPhase(.background)
            #expect(await world.session.requestsPerStay == [2, 1, 0])
            #expect(await world.session.asks.map(\.stay) == [1, 1, 2])
            #expect(
                world.log.entries(category: "stays").map(\.message) == [
                    "stay 1: 2 request frames", "stay 2: 1 request frames", "stay 3: 0 request frames",
                ]
            )
        }
    }
}
