import FTWBoxProtocol
import FTWSessionInterface

/// What a change of ``SessionState`` asks the world to do; `LiveSession` performs them in order.
enum SessionAction: Sendable {
    /// Publish `event` on the session's bus.
    case publish(SessionEvent)
    /// Write one line to the log.
    case log(category: String, atMs: Int64, String)
    /// Put `bytes` in the open connection's outbox.
    case send([UInt8])
    /// Dial connection `generation` and carry its messages.
    case connect(generation: Int)
    /// Close connection `generation`'s carrier (the runner closes it the way a peer expects).
    case disconnect(generation: Int)
    /// Start `timer`, to report back with `token` after `duration`.
    case arm(SessionTimer, Duration, token: Int)
    /// Stop `timer`.
    case cancel(SessionTimer)
    /// Answer read caller `reader`.
    case answer(reader: Int, Result<ReadAnswer, SessionError>)
    /// Tell read caller `reader` of a history tile as it lands.
    case chunk(reader: Int, HistChunk)
    /// Settle command caller `command`.
    case settle(command: Int, Result<CommandOutcome, SessionError>)
}
