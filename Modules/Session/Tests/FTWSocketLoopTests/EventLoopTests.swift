import FTWSocketLoop
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A default actor: under a task that prefers a loop it runs on the loop's thread, as the client's models do.
private actor Counter {
    private(set) var count = 0

    func add(on loop: EventLoop) -> Bool {
        count += 1
        return loop.inEventLoop
    }
}

/// An actor whose executor is the loop itself.
private actor LoopBound {
    let loop: EventLoop

    init(loop: EventLoop) { self.loop = loop }

    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    func isOnLoop() -> Bool {
        loop.preconditionIsolated()
        return loop.inEventLoop
    }

    #if DEBUG
    /// Calls `other` `times` times; returns how many jobs the loop ran meanwhile.
    func call(_ other: LoopBound, times: Int) async -> Int {
        let before = loop.jobsRun
        for _ in 0..<times { _ = await other.isOnLoop() }
        return loop.jobsRun - before
    }
    #endif
}

@Suite struct EventLoopTests {
    @Test func workRunsOnTheLoopsThreadAndNowhereElse() async throws {
        let loop = try EventLoop(name: "test.loop")
        defer { loop.shutdown() }
        let onLoop = await withCheckedContinuation { continuation in
            loop.execute { continuation.resume(returning: loop.inEventLoop) }
        }
        #expect(onLoop)
        #expect(!loop.inEventLoop)
    }

    @Test func aTaskPreferringTheLoopAndTheDefaultActorsItCallsRunOnTheLoop() async throws {
        let loop = try EventLoop(name: "test.loop")
        defer { loop.shutdown() }
        let counter = Counter()
        let (task, actor, child) = await withTaskExecutorPreference(loop) {
            let task = loop.inEventLoop
            let actor = await counter.add(on: loop)
            let child = await withTaskGroup(of: Bool.self) { group in
                group.addTask { await counter.add(on: loop) }
                return await group.next() ?? false
            }
            return (task, actor, child)
        }
        #expect(task)
        #expect(actor)
        #expect(child)
        #expect(await counter.count == 2)
    }

    @Test func anActorWhoseExecutorIsTheLoopRunsOnIt() async throws {
        let loop = try EventLoop(name: "test.loop")
        defer { loop.shutdown() }
        #expect(await LoopBound(loop: loop).isOnLoop())
    }

    #if DEBUG
    /// A nonisolated async call from a task on the loop continues in the job it was made in: the loop runs a task's
    /// job as isolated to nothing. Run as isolated to the loop, each such call left that isolation and went back
    /// through the run queue (eleven jobs a live frame on the real path).
    @Test func aNonisolatedCallFromATaskOnTheLoopStaysInItsJob() async throws {
        let loop = try EventLoop(name: "test.loop")
        defer { loop.shutdown() }
        let jobs = await withTaskExecutorPreference(loop) {
            let before = loop.jobsRun
            for _ in 0..<100 { await nonisolatedStep() }
            return loop.jobsRun - before
        }
        #expect(jobs < 10)
    }
    #endif

    #if DEBUG
    /// Two actors pinned to one loop call each other inline: they share its serial executor, so a call between them
    /// needs no job of its own.
    @Test func actorsPinnedToOneLoopCallEachOtherInline() async throws {
        let loop = try EventLoop(name: "test.loop")
        defer { loop.shutdown() }
        let first = LoopBound(loop: loop)
        let second = LoopBound(loop: loop)
        let jobs = await withTaskExecutorPreference(loop) {
            await first.call(second, times: 100)
        }
        #expect(jobs < 10)
    }
    #endif

    @Test func workKeepsTheOrderItWasQueuedIn() async throws {
        let loop = try EventLoop(name: "test.loop")
        defer { loop.shutdown() }
        let order = Order()
        await withCheckedContinuation { continuation in
            for index in 0..<1_000 { loop.execute { order.append(index) } }
            loop.execute { continuation.resume() }
        }
        #expect(order.values == Array(0..<1_000))
    }

    @Test func workQueuedAfterShutdownStillRuns() async throws {
        let loop = try EventLoop(name: "test.loop")
        loop.shutdown()
        let ran = await withCheckedContinuation { continuation in
            loop.execute { continuation.resume(returning: true) }
        }
        #expect(ran)
    }

    #if canImport(Glibc)
    @Test func anIdleLoopWakesNoOne() async throws {
        let loop = try EventLoop(name: "test.loop")
        defer { loop.shutdown() }
        let thread = await withCheckedContinuation { continuation in
            loop.execute {
                let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
                continuation.resume(returning: link.map { String($0.split(separator: "/").last ?? "") } ?? "")
            }
        }
        let before = try #require(await Self.voluntarySwitchesOnceAsleep(thread))
        // A measurement window, not a wait for an outcome: a loop that ticked (a timer, a poll with a timeout) would
        // wake its thread in it; a loop asleep in the kernel does not.
        try await ContinuousClock().sleep(for: .milliseconds(500))
        #expect(Self.voluntarySwitches(thread) == before)
    }

    /// How many times the thread `id` of this process gave up the CPU to wait.
    private static func voluntarySwitches(_ id: String) -> Int? {
        status(id).flatMap { field("voluntary_ctxt_switches", of: $0).flatMap { Int($0) } }
    }

    /// ``voluntarySwitches(_:)`` once the thread sleeps in the kernel (state S), read in the same look: counted
    /// while it still finished the work that told its id, the count rose by its one switch to sleep, in a full run
    /// whose other threads kept it from the CPU a while. Nil if it is not asleep within five seconds.
    private static func voluntarySwitchesOnceAsleep(_ id: String) async throws -> Int? {
        for _ in 0..<5_000 {
            guard let status = status(id) else { return nil }
            if field("State", of: status)?.hasPrefix("S") == true {
                return field("voluntary_ctxt_switches", of: status).flatMap { Int($0) }
            }
            try await ContinuousClock().sleep(for: .milliseconds(1))
        }
        return nil
    }

    private static func status(_ id: String) -> String? {
        try? String(contentsOfFile: "/proc/self/task/\(id)/status", encoding: .utf8)
    }

    private static func field(_ name: String, of status: String) -> String? {
        let line = status.split(separator: "\n").first { $0.hasPrefix("\(name):") }
        return line.flatMap { $0.split(separator: "\t").last.map(String.init) }
    }
    #endif
}

/// A nonisolated async function that suspends nowhere: calling it from an isolated context hops to no actor.
@inline(never) private nonisolated func nonisolatedStep() async {}

/// Integers appended from the loop's thread, read by the test afterwards.
private final class Order: @unchecked Sendable {
    // @unchecked: appended on the loop's thread only, read after the loop said it is done.
    // TODO: a Mutex, if a test ever appends from two threads.
    private(set) var values: [Int] = []

    func append(_ value: Int) { values.append(value) }
}
