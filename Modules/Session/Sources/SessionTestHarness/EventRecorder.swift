public import ClockSeam
public import SessionInterface

/// Keeps every event the session published, with the wall time it was seen, for a test to read after a settle.
public actor EventRecorder {
    /// Every event with the wall time (Unix ms) it was seen.
    public private(set) var stamped: [(atMs: Int64, event: SessionEvent)] = []
    private let stream: AsyncStream<SessionEvent>
    private let wallClock: any WallClock

    /// Records `stream`, stamping each event with `wallClock`; nothing is kept until ``run()``.
    public init(_ stream: AsyncStream<SessionEvent>, wallClock: any WallClock) {
        self.stream = stream
        self.wallClock = wallClock
    }

    /// Keeps every event until the stream ends or the task is cancelled.
    public func run() async {
        for await event in stream { stamped.append((wallClock.nowMs, event)) }
    }

    /// Every event, in order.
    public var events: [SessionEvent] { stamped.map(\.event) }

    /// The connection states published, in order.
    public var connectionStates: [ConnectionState] {
        events.compactMap { event in
            if case .connection(let state) = event { return state }
            return nil
        }
    }

    /// When each dial started (ms after `originMs`).
    public func dialTimes(since originMs: Int64) -> [Int64] {
        stamped.compactMap { stamp in
            if case .connection(.dialing) = stamp.event { return stamp.atMs - originMs }
            return nil
        }
    }

    /// When the connection closed and why (ms after `originMs`).
    public func closes(since originMs: Int64) -> [(atMs: Int64, reason: SessionError)] {
        stamped.compactMap { stamp in
            if case .connection(.closed(let reason)) = stamp.event { return (stamp.atMs - originMs, reason) }
            return nil
        }
    }

    /// The stream's returns and losses, in order.
    public var streamChanges: [SessionEvent] {
        events.filter { event in
            switch event {
            case .streamReturned, .streamLost: true
            default: false
            }
        }
    }
}
