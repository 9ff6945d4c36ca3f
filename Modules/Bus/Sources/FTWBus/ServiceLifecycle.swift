/// Where a ``ClientService`` stands in its one lifetime, and the two claims every service makes on it: the sealed
/// read happens once, and the run happens once.
///
/// A value the service keeps in its own isolation (an actor's property, a mutex's state), so the claims are checked
/// and made in one step, before any `await`.
public struct ServiceLifecycle: Sendable, Hashable {
    /// The lifetime's stages, in order: a service moves only forward.
    public enum State: Sendable, Hashable {
        /// Made; nothing read and nothing running.
        case idle
        /// The sealed read is suspended; a run may start meanwhile.
        case restoring
        /// The sealed read is done, and no run started.
        case restored
        /// The run started (after the read, beside it, or having done it itself).
        case running
        /// The run ended; the service will not run again.
        case finished
    }

    /// The service's name, for the error a second run throws.
    public let name: String

    /// Where the service stands now.
    public private(set) var state = State.idle

    /// Starts the lifetime of the service `name`.
    public init(name: String) {
        self.name = name
    }

    /// Claims the sealed read: true only for the first claim, and only before any run claimed it.
    public mutating func claimRestore() -> Bool {
        guard state == .idle else { return false }
        state = .restoring
        return true
    }

    /// The sealed read claimed by ``claimRestore()`` is done; a run that started meanwhile stays running.
    public mutating func restoreEnded() {
        if state == .restoring { state = .restored }
    }

    /// Claims the run.
    ///
    /// - Returns: True when nobody claimed the sealed read, so the run must read it itself first.
    /// - Throws: ``ServiceError/alreadyRunning(_:)`` when a run was claimed before.
    public mutating func claimRun() throws(ServiceError) -> Bool {
        switch state {
        case .idle:
            state = .running
            return true
        case .restoring, .restored:
            state = .running
            return false
        case .running, .finished:
            throw .alreadyRunning(name)
        }
    }

    /// The run ended.
    public mutating func runEnded() {
        state = .finished
    }
}
