public import FTWBus
public import FTWClockSeam
public import FTWSessionInterface

/// Keeps every event the session published, with the wall time it was seen, for a test to read after a settle, or
/// to wait on when the session runs on real sockets.
public actor EventRecorder {
    /// What a wait waits for, judged on every event so far.
    public typealias Condition = @Sendable (_ events: [SessionEvent]) -> Bool

    /// Every event with the wall time (Unix ms) it was seen.
    public private(set) var stamped: [(atMs: Int64, event: SessionEvent)] = []
    private let stream: BusStream<SessionEvent>
    private let wallClock: any WallClock
    private var waiters: [(id: Int, condition: Condition, continuation: CheckedContinuation<Void, Never>)] = []
    private var nextWaiter = 0

    /// Records `stream`, stamping each event with `wallClock`; nothing is kept until ``run()``.
    public init(_ stream: BusStream<SessionEvent>, wallClock: any WallClock) {
        self.stream = stream
        self.wallClock = wallClock
    }

    /// Keeps every event until the stream ends or the task is cancelled.
    public func run() async {
        for await event in stream {
            stamped.append((wallClock.nowMs, event))
            wakeWaiters()
        }
    }

    /// Returns once `condition` holds for the events recorded (at once if it already does), or when the task is
    /// cancelled: a loopback test waits on the session's events, raced against a time limit, instead of polling.
    public func wait(until condition: @escaping Condition) async {
        if condition(events) { return }
        let id = nextWaiter
        nextWaiter += 1
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiters.append((id, condition, continuation))
            }
        } onCancel: {
            Task { await self.release(id) }
        }
    }

    private func release(_ id: Int) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume()
    }

    private func wakeWaiters() {
        guard !waiters.isEmpty else { return }
        let now = events
        let ready = waiters.filter { $0.condition(now) }
        waiters.removeAll { waiter in ready.contains { $0.id == waiter.id } }
        for waiter in ready { waiter.continuation.resume() }
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
