public import FTWBoxProtocol
import FTWBus
public import FTWSessionInterface

extension LiveSession {
    /// Sends `request` through the box's one API slot when its turn comes in `ReadOrder` and returns the answer, by
    /// the contract of `BoxSession`.
    ///
    /// Reads asked in the same moment leave in order, one display frame after the slot fell idle; a `.person` read
    /// skips that wait and goes first. An equal read queued or on the wire is shared: one frame, every caller
    /// answered, every history reader told of each tile as it lands. A read asked in front with no session up waits
    /// for the next; one on the wire when the carrier drops fails with `.carrierLost`, and so does every read waiting
    /// when the app goes to the background or asked while it is there.
    ///
    /// - Throws: `SessionError`: `.box` with the box's error, `.timeout`, `.carrierLost`, `.responseTooLarge`,
    ///   `.malformedAnswer`, `.requestTooLarge`, `.terminated` or `.incompatibleProtocol` when the box ended the
    ///   session, `.cancelled` when the caller's task is cancelled or the session stopped.
    public func readAnswer(
        _ request: ReadRequest,
        order: ReadOrder,
        onChunk: (@Sendable (HistChunk) -> Void)?
    ) async throws(SessionError) -> ReadAnswer {
        if state.link.isStopped { throw SessionError(.cancelled, "the session has stopped") }
        let id = state.takeWaiterID()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                enqueue(request, order: order, waiter: ReadWaiter(continuation: continuation, onChunk: onChunk), id: id)
            }
        } onCancel: { [inputContinuation] in
            inputContinuation.yield(.cancelWaiter(id))
        }
        return try result.get()
    }

    private func enqueue(_ request: ReadRequest, order: ReadOrder, waiter: ReadWaiter, id: Int) {
        guard !Task.isCancelled else {
            waiter.continuation.resume(returning: .failure(SessionError(.cancelled, "the caller went away")))
            return
        }
        let joins = state.halt == nil && state.phase != .background
        readWaiters[id] = waiter
        state.enqueue(request, order: order, id: id)
        performActions()
        if joins { wake() }
    }
}
