public import FTWBoxProtocol
public import FTWBus

/// The session as the models see it: ask a read, send a command, listen to the bus.
///
/// The live session (module `Session`) talks to the box; a test double (`ScriptedSession`) answers from a script.
/// Models depend on this protocol only, never on the live session, and both obey the contract below (the suite
/// `SessionContractTests` runs the same tests against both).
///
/// ## Reads, by phase
/// - **In front, stream up**: a read leaves through the box's one API slot and returns the box's answer.
/// - **In front, no stream** (before the first phase, dialling, handshaking, or between a dropped carrier and the
///   redial): a read waits in the queue and leaves once the next stream is up.
/// - **Background**: no carrier is attached (cache.md §3). A read asked there fails at once with `.carrierLost` and
///   nothing is sent; every read still waiting when the background comes fails with `.carrierLost` too, so nothing
///   asked for an old name leaves on the next return. The return asks again by the rules then.
/// - **Halted** (the box ended the session or speaks no protocol of ours): every waiting read and every new one
///   fails with that error until the next return from the background.
/// - **Stopped**: every read fails with `.cancelled`.
///
/// ## Reads, always
/// - **Order**: reads waiting together leave in ``ReadOrder`` (first asked first within a class); `.person` goes
///   first and skips the display-frame wait.
/// - **Sharing**: a read equal to one waiting or on the wire shares it: one request frame, every caller gets the
///   same answer or the same error; a history reader who joins late is told the tiles already landed first.
/// - **Carrier lost**: a read on the wire when the carrier drops fails with `.carrierLost`, and nothing is
///   answered; reads not yet sent keep waiting for the next stream (unless the drop is the background's).
/// - **Cancellation**: a caller whose task is cancelled gets `.cancelled` at once; a waiting read nobody waits for
///   any more is never sent, one on the wire is finished for whoever still shares it.
///
/// ## Commands and hello
/// A command is a person's act: it is sent at once when a stream is up and never kept for later, so with no stream
/// (dialling, background) it fails at once with `.carrierLost` (or the halt's error). ``hello()`` is the current
/// stream's `hello_ok`, and nil whenever no stream is up.
public protocol BoxSession: Sendable {
    /// What the session tells the client: connection changes, live frames, the stream's return, pushed plans and
    /// the asks log.
    var events: EventBus<SessionEvent> { get }

    /// Sends `request` by the contract above and returns the box's answer, untyped.
    ///
    /// Models call the typed ``read(_:order:onChunk:)`` instead, which pairs the request with its answer's type;
    /// this is what a session implements once for every kind of read.
    ///
    /// - Parameters:
    ///   - request: What to ask.
    ///   - order: Where it stands in the queue; `.person` goes first and skips the display-frame wait.
    ///   - onChunk: For history reads, called with each tile as it lands, before the whole answer returns.
    /// - Throws: `SessionError` when no answer arrives or the box answers with an error.
    func readAnswer(
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
    /// Sends `read` by the contract of ``BoxSession`` and returns its answer, typed as the read says
    /// (`read(.plan, order: .plan)` is a `Plan`).
    ///
    /// - Parameters:
    ///   - read: What to ask, paired with the type of its answer.
    ///   - order: Where it stands in the queue; `.person` goes first and skips the display-frame wait.
    ///   - onChunk: For history reads, called with each tile as it lands, before the whole answer returns.
    /// - Throws: `SessionError` when no answer arrives or the box answers with an error; `.malformedAnswer` only
    ///   from a session that breaks the pairing of request and answer (a double's script).
    public func read<Answer>(
        _ read: Read<Answer>,
        order: ReadOrder,
        onChunk: (@Sendable (HistChunk) -> Void)? = nil
    ) async throws(SessionError) -> Answer {
        let answer = try await readAnswer(read.request, order: order, onChunk: onChunk)
        guard let typed = read.answer(answer) else {
            throw SessionError(.malformedAnswer, "\(read.request.wireType) was answered with another read's answer")
        }
        return typed
    }
}
