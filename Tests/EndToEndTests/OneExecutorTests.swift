import FTWBus
import FTWCache
import FTWClient
import FTWClockSeam
import FTWDemoBox
import FTWFixtures
import FTWSession
import FTWSessionInterface
import FTWSite
import FTWSocketLoop
import FTWTrace
import Foundation
import Synchronization
import Testing

/// One client, one executor: a client composed on an event loop, streaming from the demo box over a real socket,
/// reads each live frame on the loop's thread and hands it through the session and the bus to every model without
/// a thread hand-off.
@Suite struct OneExecutorTests {
    /// Looks at every event the session publishes, on the publishing thread (a bus filter runs inside `publish`),
    /// and takes none of them, so it adds no hand-off of its own.
    private final class FrameProbe: Sendable {
        private struct Seen {
            var frames = 0
            var framesOffLoop = 0
            var framesInATask = 0
            var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        }

        private let loop: EventLoop
        private let seen = Mutex(Seen())

        init(loop: EventLoop) { self.loop = loop }

        func look(_ event: SessionEvent) -> Bool {
            guard case .telemetry = event else { return false }
            let onLoop = loop.inEventLoop
            let inATask = withUnsafeCurrentTask { $0 != nil }
            let ready = seen.withLock { seen in
                seen.frames += 1
                if !onLoop { seen.framesOffLoop += 1 }
                if inATask { seen.framesInATask += 1 }
                let frames = seen.frames
                defer { seen.waiters.removeAll { $0.count <= frames } }
                return seen.waiters.filter { $0.count <= frames }.map(\.continuation)
            }
            for waiter in ready { waiter.resume() }
            return false
        }

        var frames: Int { seen.withLock(\.frames) }
        var framesOffLoop: Int { seen.withLock(\.framesOffLoop) }
        /// Frames the session published from a task's job rather than inside the loop's read of its socket.
        var framesInATask: Int { seen.withLock(\.framesInATask) }

        /// Returns once `count` live frames were published.
        func wait(for count: Int) async {
            await withCheckedContinuation { continuation in
                let isThere = seen.withLock { seen in
                    guard seen.frames < count else { return true }
                    seen.waiters.append((count, continuation))
                    return false
                }
                if isThere { continuation.resume() }
            }
        }
    }

    /// Counts the events a model publishes, and those it published from a task's job rather than as a plain call
    /// inside the session's publish; takes none of them.
    private final class JobProbe<Event: Sendable>: Sendable {
        private let counts = Mutex((events: 0, inATask: 0))

        func look(_ event: Event) -> Bool {
            let inATask = withUnsafeCurrentTask { $0 != nil }
            counts.withLock { counts in
                counts.events += 1
                if inATask { counts.inATask += 1 }
            }
            return false
        }

        var events: Int { counts.withLock(\.events) }
        var inATask: Int { counts.withLock(\.inATask) }
    }

    /// Also: the session takes each frame inside the loop's read of its socket, as a plain call, with no task
    /// resumed for it (the session shares the loop's executor, so the read is on its isolation), and the snapshot
    /// and the trace take it inside the session's publish, with no job either.
    @Test func aLiveFrameReachesEveryModelOnTheThreadThatReadItsSocket() async throws {
        let folder = PhoneWorld.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let box = SimulatedBox(
            configuration: WallClockRelay.configuration,
            clock: ContinuousClock(),
            wallClock: SystemWallClock()
        )
        let relay = try DemoRelayServer(box: box, port: 0, clock: ContinuousClock())
        let address = RelayAddress(secure: false, host: "127.0.0.1", port: relay.port)
        let loop = try EventLoop(name: "test.client")
        defer { loop.shutdown() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await box.run() }
            group.addTask { try await relay.run() }
            defer { group.cancelAll() }
            let link = try EnrolmentURL(parsing: await box.enrolmentURL(lanHint: "127.0.0.1:\(relay.port)"))
            let pairing = Pairing(store: folder.unlockedStore(), clock: ContinuousClock(), wallClock: SystemWallClock())
            let paired = try await pairing.pair(link, relay: address)
            let client = HeadlessClient(
                paired: paired,
                store: folder.unlockedStore(),
                dialer: address.dialer(
                    rendezvousSecret: paired.rendezvousSecret,
                    caFile: nil,
                    clock: ContinuousClock(),
                    wallClock: SystemWallClock(),
                    loop: loop
                ),
                clock: ContinuousClock(),
                wallClock: SystemWallClock(),
                random: SystemRandomSource(),
                policy: .ageKeyed,
                log: DiscardingLogSink(),
                executor: loop
            )
            let probe = FrameProbe(loop: loop)
            let watch = client.sessionEvents.subscribe(where: probe.look)
            group.addTask { try await client.run() }
            try await client.setPhase(.inactive)
            try await client.setPhase(.active)
            client.show(.now)
            client.show(.battery)
            try await TimeLimit.within(.seconds(60), on: ContinuousClock(), "two live frames") {
                await probe.wait(for: 2)
            }
            // From here on nobody outside the client calls in: every event is the socket's doing.
            #if DEBUG
            let crossingsBefore = client.sessionEvents.threadCrossings
            #endif
            let framesBefore = probe.frames
            let inATaskBefore = probe.framesInATask
            let snapshotProbe = JobProbe<SnapshotModel.Change>()
            let traceProbe = JobProbe<TraceEvent>()
            let snapshotWatch = client.snapshot.changes.subscribe(where: snapshotProbe.look)
            let traceWatch = client.trace.events.subscribe(where: traceProbe.look)
            // Five frames at least, and on until the snapshot and the trace have each taken one: a tick, which only
            // confirms the readings, changes neither, and a loaded machine can bunch the demo box's ticks.
            try await TimeLimit.within(.seconds(60), on: ContinuousClock(), "five more live frames") {
                await probe.wait(for: framesBefore + 5)
                while snapshotProbe.events == 0 || traceProbe.events == 0, probe.frames < framesBefore + 30 {
                    await probe.wait(for: probe.frames + 1)
                }
            }
            #expect(probe.framesOffLoop == 0, "\(probe.framesOffLoop) of \(probe.frames) frames published off the loop")
            let inATask = probe.framesInATask - inATaskBefore
            #expect(inATask == 0, "\(inATask) frames were published from a task's job, not inside the socket's read")
            #expect(snapshotProbe.events > 0 && traceProbe.events > 0, "the snapshot and the trace saw the frames")
            #expect(
                snapshotProbe.inATask + traceProbe.inATask == 0,
                "the snapshot took \(snapshotProbe.inATask) and the trace \(traceProbe.inATask) frames as a task's job"
            )
            #if DEBUG
            let crossings = client.sessionEvents.threadCrossings - crossingsBefore
            #expect(crossings == 0, "the models took \(crossings) events on another thread than the publisher's")
            #endif
            try await client.setPhase(.background)
            await relay.close()
            withExtendedLifetime((watch, snapshotWatch, traceWatch)) {}
        }
    }
}
