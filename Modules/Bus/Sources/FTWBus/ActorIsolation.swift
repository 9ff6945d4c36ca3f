/// Where one of a client's actors runs: on the serial executor it shares with the client's other actors (a live
/// client's event loop), or on a queue of its own, as a plain actor does.
///
/// Actors that share one serial executor call each other without a hand-over: a switch between two executors of
/// the same identity runs inline, and a task resumed for one of them is one job on the executor. Under a task
/// executor preference a plain (default) actor costs two jobs per resume, one that resumes the task isolated to
/// nothing and one that drains the actor, and every switch between two of them goes back through the run queue.
/// An actor keeps its own queue when no executor is shared (a `Simulation`, a test): then it is isolated exactly as
/// a default actor is, since its queue is one (an actor may take another actor's executor for its own).
///
/// An actor adopts it with `nonisolated var unownedExecutor: UnownedSerialExecutor { isolation.unownedExecutor }`.
public struct ActorIsolation: Sendable {
    /// A default actor whose executor stands in for the actor's own.
    private actor OwnQueue {}

    private let shared: (any SerialExecutor)?
    private let own: OwnQueue?

    /// Shares `executor` when one is given; a queue of the actor's own otherwise.
    ///
    /// - Parameter executor: The serial executor the client's actors share, or nil.
    public init(sharing executor: (any SerialExecutor)?) {
        shared = executor
        own = executor == nil ? OwnQueue() : nil
    }

    /// The executor shared with the client's other actors, if one is: a reader on its thread may call the actor
    /// there directly (`assumeIsolated`), as a job on it would.
    public var sharedExecutor: (any SerialExecutor)? { shared }

    /// The executor the actor runs on.
    public var unownedExecutor: UnownedSerialExecutor {
        if let shared { return shared.asUnownedSerialExecutor() }
        // `own` is set whenever `shared` is not.
        return own.unsafelyUnwrapped.unownedExecutor
    }
}
