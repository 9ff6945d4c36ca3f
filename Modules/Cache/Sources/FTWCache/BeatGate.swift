public import FTWSessionInterface
import Synchronization

/// Which live frames a model's loop needs to see, decided inside the bus's publish so the others cost a comparison,
/// not a hand-over to the model's task (a frame a second reaches every model).
///
/// The model sets it after each input it handled, from its ``AskDecision``: the earliest wall-clock time a frame can
/// matter, and, for a model whose live frames carry the stream (the history), the connection it already knows. Every
/// other event always passes.
///
/// ## Concurrency
/// Two atomics, written by the model's actor and read by whoever publishes. A frame filtered while the model is busy
/// is never missed in effect: the model weighs the clock when it handles its next input, and after an answer it
/// weighs the name again by itself.
public final class BeatGate: Sendable {
    private static let notFollowed = Int.min
    private let dueMs = Atomic<Int64>(0)
    private let connection = Atomic<Int>(Int.min)

    /// A gate that lets every frame through until the model first sets it.
    public init() {}

    /// Whether `event`, published at `nowMs`, goes to the model. The time is read only when the frame's connection
    /// does not decide it and a frame can matter at all: every model's gate runs inside each live frame's publish.
    public func admits(_ event: SessionEvent, nowMs: @autoclosure () -> Int64) -> Bool {
        guard case .telemetry(let frame) = event else { return true }
        let known = connection.load(ordering: .acquiring)
        if known != Self.notFollowed && frame.connection != known { return true }
        let due = dueMs.load(ordering: .acquiring)
        return due != .max && nowMs() >= due
    }

    /// Lets frames through from `dueMs` on, and, for a model that follows the connection through frames, any frame
    /// on another connection than the one it knows.
    ///
    /// - Parameters:
    ///   - dueMs: The earliest wall-clock time (Unix ms) a frame can matter; `Int64.max` for never.
    ///   - follows: Whether frames carry the stream to the model.
    ///   - knownConnection: When `follows`, the connection the model knows, nil for none yet (every frame passes
    ///     until one is known).
    public func set(dueMs: Int64, follows: Bool, knownConnection: Int?) {
        connection.store(follows ? knownConnection ?? -1 : Self.notFollowed, ordering: .releasing)
        self.dueMs.store(dueMs, ordering: .releasing)
    }
}
