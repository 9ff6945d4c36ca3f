/// Every message of protocol v1 as a typed value (§2): what a session sends and what it hands to the modules above.
///
/// ``unknown(type:)`` stands for a type this build does not know; both sides ignore those (the box answers
/// E_UNKNOWN_OP only when one carries an id).
public enum Message: Sendable, Hashable {
    /// `hello` (app → box).
    case hello(Hello)
    /// `hello_ok` (box → app).
    case helloOK(HelloOK)
    /// `sub` (app → box).
    case sub(Sub)
    /// `snap` (box → app).
    case snap(Snap)
    /// `delta` (box → app).
    case delta(Delta)
    /// `tick` (box → app).
    case tick(Tick)
    /// `plan.get` (app → box), which has no body.
    case planGet
    /// `plan` (box → app).
    case plan(Plan)
    /// `price.get` (app → box).
    case priceGet(PriceGet)
    /// `price` (box → app).
    case price(Price)
    /// `hist.query` (app → box).
    case histQuery(HistQuery)
    /// `hist.chunk` (box → app).
    case histChunk(HistChunk)
    /// `hist.end` (box → app).
    case histEnd(HistEnd)
    /// `api.req` (app → box).
    case apiReq(APIRequest)
    /// `api.head` (box → app).
    case apiHead(APIHead)
    /// `api.chunk` (box → app).
    case apiChunk(APIChunk)
    /// `api.end` (box → app).
    case apiEnd(APIEnd)
    /// `cmd` (app → box).
    case cmd(Command)
    /// `cmd.ack` (box → app).
    case cmdAck(CommandAck)
    /// `cmd.result` (box → app).
    case cmdResult(CommandResult)
    /// `event` (box → app).
    case event(BoxEvent)
    /// `error` (box → app).
    case error(ErrorBody)
    /// `session.terminate` (box → app).
    case sessionTerminate(SessionTerminate)
    /// A type this build does not know; its body is dropped.
    case unknown(type: String)
}
