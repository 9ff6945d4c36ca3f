import ClockSeam
import SessionInterface

/// Keeps every event the session published, with the wall time it was seen, for a test to read after a settle.
actor EventRecorder {
    private(set) var stamped: [(atMs: Int64, event: SessionEvent)] = []
    private let stream: AsyncStream<SessionEvent>
    private let wallClock: any WallClock

    init(_ stream: AsyncStream<SessionEvent>, wallClock: any WallClock) {
        self.stream = stream
        self.wallClock = wallClock
    }

    func run() async {
        for await event in stream { stamped.append((wallClock.nowMs, event)) }
    }

    /// Every event, in order.
    var events: [SessionEvent] { stamped.map(\.event) }

    /// The connection states published, in order.
    var connectionStates: [ConnectionState] {
        events.compactMap { event in
            if case .connection(let state) = event { return state }
            return nil
        }
    }

    /// When each dial started (ms after `originMs`).
    func dialTimes(since originMs: Int64) -> [Int64] {
        stamped.compactMap { stamp in
            if case .connection(.dialing) = stamp.event { return stamp.atMs - originMs }
            return nil
        }
    }

    /// When the connection closed and why (ms after `originMs`).
    func closes(since originMs: Int64) -> [(atMs: Int64, reason: SessionError)] {
        stamped.compactMap { stamp in
            if case .connection(.closed(let reason)) = stamp.event { return (stamp.atMs - originMs, reason) }
            return nil
        }
    }

    /// The stream's returns and losses, in order.
    var streamChanges: [SessionEvent] {
        events.filter { event in
            switch event {
            case .streamReturned, .streamLost: true
            default: false
            }
        }
    }
}
