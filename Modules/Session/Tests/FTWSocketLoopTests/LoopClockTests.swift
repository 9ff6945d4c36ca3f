import FTWClockSeam
import FTWSocketLoop
import Synchronization
import Testing

/// The loop's clock: sleeps woken by the loop's timer, in deadline order, on the sleeper's own executor, cancelled at
/// once, and nothing watched once nobody sleeps.
@Suite struct LoopClockTests {
    @Test func sleepersWakeAfterTheirDeadlinesInDeadlineOrderOnTheLoop() async throws {
        let loop = try EventLoop(name: "test.clock")
        defer { loop.shutdown() }
        let clock = LoopClock(base: ContinuousClock(), loop: loop)
        let woken = Woken()
        let start = clock.now
        let onLoop = await withTaskExecutorPreference(loop) {
            await withTaskGroup(of: Bool.self) { group in
                for milliseconds in [30, 10, 20] {
                    group.addTask {
                        try? await clock.sleep(for: .milliseconds(milliseconds))
                        woken.values.withLock { $0.append(milliseconds) }
                        return loop.inEventLoop
                    }
                }
                return await group.reduce(true) { $0 && $1 }
            }
        }
        #expect(woken.values.withLock { $0 } == [10, 20, 30])
        #expect(start.duration(to: clock.now) >= .milliseconds(30))
        #expect(onLoop)
        #expect(await Self.watched(on: loop) == 0, "an idle clock still has the loop watching its timer")
    }

    @Test func aCancelledSleepEndsAtOnceWithCancellationError() async throws {
        let loop = try EventLoop(name: "test.clock")
        defer { loop.shutdown() }
        let clock = LoopClock(base: ContinuousClock(), loop: loop)
        let sleeper = Task { try await clock.sleep(for: .seconds(3_600)) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(await Self.watched(on: loop) == 0)
    }

    @Test func aDeadlineAlreadyPastDoesNotSleep() async throws {
        let loop = try EventLoop(name: "test.clock")
        defer { loop.shutdown() }
        let clock = LoopClock(base: ContinuousClock(), loop: loop)
        try await clock.sleep(until: clock.now.advanced(by: .seconds(-1)))
        #expect(await Self.watched(on: loop) == 0)
    }

    /// A deadline moved later while its sleeper sleeps: the loop asks it again before it waits, so the sleeper wakes
    /// at the moved deadline, not before, and on the loop.
    @Test func aMovingSleeperWakesAtItsMovedDeadline() async throws {
        let loop = try EventLoop(name: "test.clock")
        defer { loop.shutdown() }
        let clock = LoopClock(base: ContinuousClock(), loop: loop)
        let start = clock.now
        let deadline = MovedDeadline(start.advanced(by: .milliseconds(30)))
        let remaining: @Sendable (Int64) -> Int64 = { slept in
            start.duration(to: deadline.instant.withLock { $0 }).wholeNanoseconds - slept
        }
        let onLoop = await withTaskExecutorPreference(loop) {
            await withTaskGroup(of: Bool.self) { group in
                group.addTask {
                    try? await clock.sleep(whileRemainingNanoseconds: remaining)
                    return loop.inEventLoop
                }
                group.addTask {
                    try? await clock.sleep(for: .milliseconds(10))
                    deadline.instant.withLock { $0 = start.advanced(by: .milliseconds(80)) }
                    return true
                }
                return await group.reduce(true) { $0 && $1 }
            }
        }
        #expect(start.duration(to: clock.now) >= .milliseconds(80), "woken at the deadline it was first given")
        #expect(onLoop)
    }

    /// How many descriptors `loop` watches, asked on its thread.
    private static func watched(on loop: EventLoop) async -> Int {
        await withCheckedContinuation { continuation in
            loop.execute { continuation.resume(returning: loop.watchedCount) }
        }
    }
}

/// The order sleepers woke in.
private final class Woken: Sendable {
    let values = Mutex<[Int]>([])
}

/// A deadline another task moves.
private final class MovedDeadline: Sendable {
    let instant: Mutex<ContinuousClock.Instant>

    init(_ instant: ContinuousClock.Instant) {
        self.instant = Mutex(instant)
    }
}
