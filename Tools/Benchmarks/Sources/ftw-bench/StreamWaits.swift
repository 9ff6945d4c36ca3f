import FTWClockSeam
import FTWFixtures
import FTWSessionInterface
import FTWSessionTestHarness

/// The waits of the benchmarks that run a live session on real sockets: on the session's published events, each
/// capped at 30 s of real time, never a poll (a poll's slice would be timed with what it waits for).
enum StreamWaits {
    /// Returns once the stream has come up `count` times since the recorder started.
    static func streaming(_ count: Int, _ recorder: EventRecorder) async throws {
        try await TimeLimit.within(.seconds(30), on: ContinuousClock(), "stream \(count)") {
            await recorder.wait { events in
                events.filter { if case .connection(.streaming) = $0 { true } else { false } }.count == count
            }
        }
    }

    /// Returns once the last connection state published is no longer streaming: the background closed it.
    static func down(_ recorder: EventRecorder) async throws {
        try await TimeLimit.within(.seconds(30), on: ContinuousClock(), "the stream closing") {
            await recorder.wait { events in
                guard case .streaming? = events.lazy.compactMap(Self.connectionState).last else { return true }
                return false
            }
        }
    }

    private static func connectionState(_ event: SessionEvent) -> ConnectionState? {
        if case .connection(let state) = event { return state }
        return nil
    }
}
