public import BoxProtocol
public import Bus

/// The session as the models see it: ask a read, send a command, listen to the bus.
///
/// The live session (module `Session`) sends reads through the box's one API slot in ``ReadOrder``, shares equal
/// reads, and keeps queued reads across a reconnect; a test double answers from a script. Models depend on this
/// protocol only, never on the live session.
public protocol BoxSession: Sendable {
    /// What the session tells the client: connection changes, live frames, the stream's return, pushed plans and
    /// the asks log.
    var events: EventBus<SessionEvent> { get }

    /// Sends `request` when its turn comes in ``ReadOrder`` and returns the box's answer.
    ///
    /// A read asked while no session is up waits for the next one; a read on the wire when the carrier drops fails
    /// with `.carrierLost` and nothing is answered. An equal read already queued or on the wire is shared.
    ///
    /// - Parameters:
    ///   - request: What to ask.
    ///   - order: Where it stands in the queue; `.person` goes first and skips the display-frame wait.
    ///   - onChunk: For history reads, called with each tile as it lands, before the whole answer returns.
    /// - Throws: `SessionError` when no answer arrives or the box answers with an error.
    func read(
        _ request: ReadRequest,
        order: ReadOrder,
        onChunk: (@Sendable (HistChunk) -> Void)?
    ) async throws(SessionError) -> ReadAnswer

    /// Sends a command now (a person's act, never queued behind reads) and returns how it settled.
    ///
    /// - Throws: `SessionError` when no session is up or the box never acknowledges it.
    func command(_ request: CommandRequest) async throws(SessionError) -> CommandOutcome

    /// The box's answer to our hello on the current connection, if one is up: its time zone, capabilities, role.
    func hello() async -> HelloOK?
}

extension BoxSession {
    /// Sends `request` in its turn and returns the answer, without following history tiles one by one.
    ///
    /// - Throws: `SessionError` when no answer arrives or the box answers with an error.
    public func read(_ request: ReadRequest, order: ReadOrder) async throws(SessionError) -> ReadAnswer {
        try await read(request, order: order, onChunk: nil)
    }
}
