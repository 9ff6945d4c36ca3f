import FTWBoxProtocol
import Synchronization

/// Where tiles land as the session hands them over, and the bell that starts a display frame's gather.
///
/// The session calls back synchronously from its own context, so the tiles wait here, behind a lock, until the model
/// takes them: the gather at the end of the frame the first one started, or the read itself once its answer is
/// complete. The bell rings once per frame: only the first landing (or arming) after a gather rings it.
final class LandingInbox: Sendable {
    private struct State {
        var chunks: [HistChunk] = []
        var armed = false
    }

    private let state = Mutex(State())
    private let bell: AsyncStream<Void>.Continuation

    /// One element per display frame to gather; one consumer, the model's gather loop.
    let rings: AsyncStream<Void>

    init() {
        (rings, bell) = AsyncStream<Void>.makeStream()
    }

    /// A tile landed: keep it, and start a frame unless one is running.
    func land(_ chunk: HistChunk) {
        let ring = state.withLock { state in
            state.chunks.append(chunk)
            return arm(&state)
        }
        if ring { bell.yield() }
    }

    /// Something changed without a tile (a read settled): start a frame unless one is running.
    func arm() {
        if state.withLock({ arm(&$0) }) { bell.yield() }
    }

    /// The tiles landed so far; the running frame goes on.
    func take() -> [HistChunk] {
        state.withLock { state in
            defer { state.chunks.removeAll() }
            return state.chunks
        }
    }

    /// The tiles landed in the frame that just ended; the next landing starts a new one.
    func gather() -> [HistChunk] {
        state.withLock { state in
            defer {
                state.chunks.removeAll()
                state.armed = false
            }
            return state.chunks
        }
    }

    /// Ends the bell's stream: no frame will be gathered any more.
    func finish() {
        bell.finish()
    }

    private func arm(_ state: inout State) -> Bool {
        defer { state.armed = true }
        return !state.armed
    }
}
