import FTWSocketLoop
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Signals through the loop's pipe: each watch gets the signals it asked for, and a signal no watch holds any more
/// takes its earlier action again.
@Suite struct SignalWatchTests {
    /// The handler `signal` has now; nil for its default.
    private static func isDefault(_ signal: Int32) -> Bool {
        var action = sigaction()
        _ = sigaction(signal, nil, &action)
        #if canImport(Glibc)
        return action.__sigaction_handler.sa_handler == nil
        #else
        return action.__sigaction_u.__sa_handler == nil
        #endif
    }

    @Test func eachWatchGetsItsSignalsAndTheDefaultIsBackAfterTheLast() async throws {
        #expect(Self.isDefault(SIGUSR1) && Self.isDefault(SIGUSR2))
        let both = try SignalWatch.start([SIGUSR1, SIGUSR2])
        let one = try SignalWatch.start([SIGUSR1])
        var bothArrivals = both.arrivals.makeAsyncIterator()
        var oneArrivals = one.arrivals.makeAsyncIterator()
        #expect(!Self.isDefault(SIGUSR1) && !Self.isDefault(SIGUSR2))

        _ = kill(getpid(), SIGUSR2)
        _ = kill(getpid(), SIGUSR1)
        #expect(await bothArrivals.next() == SIGUSR2)
        #expect(await bothArrivals.next() == SIGUSR1)
        #expect(await oneArrivals.next() == SIGUSR1)

        both.stop()
        #expect(await bothArrivals.next() == nil, "a stopped watch's arrivals end")
        #expect(Self.isDefault(SIGUSR2), "no watch holds SIGUSR2: its default is back")
        #expect(!Self.isDefault(SIGUSR1), "the other watch still holds SIGUSR1")
        one.stop()
        #expect(Self.isDefault(SIGUSR1))
    }
}
