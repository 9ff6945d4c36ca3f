import FTWBoxProtocol
import FTWBus
import FTWClockSeamTesting
import FTWSealInterface
import FTWSealTestSupport
import FTWSessionTestSupport
import FTWTrace
import Testing

/// The trace as a service: it runs once, a launch read never undoes live points, and a ring file that cannot be
/// written is told.
@Suite struct TraceServiceTests {
    @Test func aSecondRunIsRefusedByNameAndTheFirstKeepsRecording() async {
        let trace = await TraceWorld.recording { world, trace in
            await #expect(throws: ServiceError.alreadyRunning("trace")) { try await trace.run() }
            await world.stream(seconds: 3)
        }
        #expect(await trace.points(field: FieldID.grid).count == 3)
    }

    /// The trace's run waits for a launch read on its way, so frames that come meanwhile are recorded after the
    /// points read back, never under them.
    @Test func liveFramesThatComeWhileTheLaunchReadIsSuspendedAreRecordedAfterIt() async {
        await TraceWorld().run { world in
            await world.firstLaunch { _ in await world.stream(seconds: 5) }
            await world.simulation.advance(by: .seconds(60))
            let held = HeldReadStore(world.store())
            let trace = world.makeTrace(store: held)
            let log = trace.events.subscribe()
            let heldReads = await held.race(trace, settle: world.simulation.settle) {
                await world.stream(seconds: 2)
            }
            #expect(heldReads == 1)
            trace.events.finish()
            let restored = await log.reduce(into: [Int]()) { if case .restored(let points) = $1 { $0.append(points) } }
            #expect(restored.count == 1)
            let times = await trace.points(field: FieldID.grid).map(\.timeMs)
            #expect(times.count == 7)
            #expect(times == times.sorted())
        }
    }

    @Test func aRingFileThatCannotBeWrittenIsToldOnTheBus() async {
        await TraceWorld().run { world in
            let trace = world.makeTrace(store: InMemorySealedStore(keys: FailingKeyProvider(), events: EventBus()))
            let log = trace.events.subscribe()
            await world.running(trace) {
                await world.stream(seconds: 2)
                await trace.persist()
            }
            trace.events.finish()
            let failed = await log.reduce(into: [SealError]()) {
                if case .persistFailed(let error) = $1 { $0.append(error) }
            }
            #expect(failed == [SealError(.keyUnavailable, "locked")])
        }
    }
}
