import SessionInterface

/// Keeps every event the session published, from the moment it was made, for a test to read after a settle.
actor EventRecorder {
    private(set) var events: [SessionEvent] = []
    private let stream: AsyncStream<SessionEvent>

    init(_ stream: AsyncStream<SessionEvent>) {
        self.stream = stream
    }

    func run() async {
        for await event in stream { events.append(event) }
    }

    /// The connection states published, in order.
    var connectionStates: [ConnectionState] {
        events.compactMap { event in
            if case .connection(let state) = event { return state }
            return nil
        }
    }

    /// How many events match `predicate`.
    func count(where predicate: @Sendable (SessionEvent) -> Bool) -> Int {
        events.filter(predicate).count
    }
}
