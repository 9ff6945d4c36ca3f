public import FTWBoxProtocol

/// What the session tells the rest of the client, on its bus.
public enum SessionEvent: Sendable, Hashable {
    /// The connection moved to a new state.
    case connection(ConnectionState)
    /// The carrier closed under the session with this close code and reason (a relay's 4409/4410 carry the epoch,
    /// 4429 why it is busy, 1001 a proxy's restart): published just before the ``connection(_:)`` close it causes, so
    /// a timeline can name the code the close's message only quotes.
    case carrierClosed(code: Int, reason: String)
    /// A live frame arrived (snap, delta or tick).
    case telemetry(TelemetryFrame)
    /// The stream went live (its first beat, or the first after a silence) or stale (no beat within its gap rule):
    /// the only word on whether readings are live; `hello_ok` alone is not.
    case liveness(StreamLiveness)
    /// The first live frame of a new connection arrived: the stream is back, so someone "starts looking again".
    case streamReturned(connection: Int)
    /// The stream stopped (the carrier dropped or the app went to the background).
    case streamLost(reason: String)
    /// The box pushed a plan without being asked (after an applied command): it replaces the plan, for free.
    case planPushed(Plan)
    /// A request frame left: the asks log.
    case asked(AskRecord)
    /// An `error` frame without a request id: it concerns the whole session.
    case boxError(ErrorBody)
    /// The box ended the session (`session.terminate`) with this reason.
    case terminated(reason: String)
}
