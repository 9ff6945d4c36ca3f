import FTWClockSeam
import FTWClockSeamTesting
import Synchronization
import Testing

@Suite struct ManualClockTests {
    @Test func aSleeperWakesOnlyWhenTheClockReachesItsDeadline() async throws {
        let clock = ManualClock(originMs: 1_000)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await clock.sleep(for: .seconds(5)) }
            await clock.waitForSleepers(count: 1)
            clock.advance(by: .seconds(4))
            #expect(clock.sleeperCount == 1)
            clock.advance(by: .seconds(1))
            try await group.next()
            #expect(clock.sleeperCount == 0)
        }
        #expect(clock.nowMs == 6_000)
    }

    @Test func wallTimeAndMonotonicTimeMoveTogether() {
        let clock = ManualClock(originMs: 1_764_669_660_000)
        clock.advance(by: .milliseconds(1_500))
        #expect(clock.nowMs == 1_764_669_661_500)
        #expect(clock.now.offset == .milliseconds(1_500))
    }

    @Test func aCancelledSleeperThrowsAndLeavesNoTrace() async {
        let clock = ManualClock(originMs: 0)
        let task = Task { try await clock.sleep(for: .seconds(60)) }
        await clock.waitForSleepers(count: 1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func aSleepAlreadyDueReturnsAtOnce() async throws {
        let clock = ManualClock(originMs: 0)
        try await clock.sleep(until: clock.now)
        #expect(clock.sleeperCount == 0)
    }

    /// A deadline moved later while its sleeper sleeps keeps the sleeper parked, unwoken, when the old one comes; the
    /// clock reports the moved deadline, and the sleeper wakes at the new one.
    @Test func aMovingSleeperSleepsOnWhenItsDeadlinePutOff() async throws {
        let clock = ManualClock(originMs: 0)
        let deadline = Deadline(clock, at: .seconds(4))
        let woken = try await withThrowingTaskGroup(of: Duration.self) { group in
            group.addTask {
                try await clock.sleep(whileRemaining: deadline.remaining(afterSleeping:))
                return clock.now.offset
            }
            await clock.waitForSleepers(count: 1)
            clock.advance(by: .seconds(3))
            deadline.move(to: .seconds(7))
            #expect(clock.nextDeadline?.offset == .seconds(7), "the clock still waits for the old deadline")
            clock.advance(by: .seconds(2))
            #expect(clock.sleeperCount == 1, "woken at the old deadline")
            deadline.move(to: .seconds(9))
            clock.advance(by: .seconds(2))
            #expect(clock.sleeperCount == 1)
            clock.advance(by: .seconds(2))
            return try await group.next()
        }
        #expect(woken == .seconds(9))
    }

    @Test func aMovingSleeperWithNoTimeLeftReturnsAtOnce() async throws {
        let clock = ManualClock(originMs: 0)
        try await clock.sleep(whileRemaining: { _ in .zero })
        #expect(clock.sleeperCount == 0)
    }
}

/// A deadline on a manual clock that a test moves: the time left is the deadline less the clock's now.
private final class Deadline: Sendable {
    private let clock: ManualClock
    private let at: Mutex<Duration>

    init(_ clock: ManualClock, at: Duration) {
        self.clock = clock
        self.at = Mutex(at)
    }

    func move(to offset: Duration) { at.withLock { $0 = offset } }

    @Sendable func remaining(afterSleeping slept: Duration) -> Duration { at.withLock { $0 } - clock.now.offset }
}
