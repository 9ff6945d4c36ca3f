import ClockSeam
import ClockSeamTesting
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
}
