/// Work waiting for its moment: deliveries held back by the relay's latency, API answers and history tiles still
/// being "read". Jobs come out in order of due time, and in the order they were added when due together.
struct TimedJobs<Job: Sendable>: Sendable {
    private struct Entry: Sendable {
        let due: Duration
        let order: Int
        let job: Job
    }

    private var entries: [Entry] = []
    private var nextOrder = 0
    /// The latest due time of a relay delivery: later ones never overtake it, whatever the latency does.
    private(set) var lastRelayDue: Duration = .zero
    /// Relay deliveries still waiting.
    private(set) var pendingRelays = 0

    /// Adds a job due at `due`.
    mutating func add(_ job: Job, due: Duration, isRelay: Bool) {
        entries.append(Entry(due: due, order: nextOrder, job: job))
        nextOrder += 1
        if isRelay {
            lastRelayDue = max(lastRelayDue, due)
            pendingRelays += 1
        }
    }

    /// Removes and returns every job due by `now`, earliest first.
    mutating func takeDue(now: Duration, isRelay: (Job) -> Bool) -> [Job] {
        let due = entries.filter { $0.due <= now }.sorted { ($0.due, $0.order) < ($1.due, $1.order) }
        guard !due.isEmpty else { return [] }
        entries.removeAll { $0.due <= now }
        pendingRelays -= due.filter { isRelay($0.job) }.count
        return due.map(\.job)
    }
}
