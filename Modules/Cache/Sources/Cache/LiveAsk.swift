import BoxProtocol
public import Bus
public import ClockSeam
public import SealInterface
public import SessionInterface

/// The age-keyed ask: one model's answer from the box, asked again only when the data's age says so.
///
/// A model names what it wants by the data's age (``AskName``). The answer stands while that name holds: a view
/// that stays open asks again only when the name changes. When someone starts looking again (a view appears, the
/// stream comes back), an answer older than its time to live no longer stands. Nothing else asks — no timer, no
/// redial by itself. A pull to refresh always sends. A name that changes while an ask is on the wire waits for it to
/// settle and is then asked under the new name; an answer is only ever recorded under the name it was asked under.
/// Answers are sealed in the model's own file and read back at launch, so after a kill they stand by the same rules.
///
/// ## Concurrency
/// An actor; ``run()`` is its service loop and the only place asks happen, one at a time, so every trigger that
/// arrives while an ask is on the wire is handled once that ask has settled. Triggers and session events reach the
/// loop through one stream, in order, which has one reader: a second ``run()`` is refused.
public actor LiveAsk<Answer: Sendable & SealedCodable & Equatable>: ClientService {
    /// Names what the model wants now, given the answer it holds; nil when it wants nothing.
    public typealias Namer = @Sendable (_ nowMs: Int64, _ stored: StoredAnswer<Answer>?) -> AskName?

    /// Asks the box under `name`; `byPerson` is true for a pull to refresh, which goes first in the read order.
    public typealias Asker = @Sendable (_ name: AskName, _ byPerson: Bool) async throws(SessionError) -> Answer

    /// What a model's ask did, for observers.
    public enum Event: Sendable, Equatable {
        /// The answer kept in the sealed file was read back at launch.
        case restored(StoredAnswer<Answer>)
        /// A new answer arrived and was recorded under the name it was asked under.
        case answered(StoredAnswer<Answer>)
        /// An ask failed; nothing was recorded.
        case failed(name: AskName, error: SessionError)
        /// The answer or the verdict could not be sealed; it is held in memory and the previous file, if any, stays.
        case notKept(SealError)
    }

    private enum Input: Sendable {
        case trigger(AskTrigger)
        case session(SessionEvent)
        case adopt(Answer)
    }

    /// Where the model's answer comes from and how long it stands.
    public struct Configuration: Sendable {
        /// The model's name: its sealed file (`<model>-<site>`) and its word in logs.
        public var model: String
        /// How old an answer may be when someone starts looking again; nil when only the name decides.
        public var timeToLive: Duration?
        /// The rule for asking again.
        public var policy: AskPolicy

        /// Makes a configuration.
        public init(model: String, timeToLive: Duration?, policy: AskPolicy) {
            self.model = model
            self.timeToLive = timeToLive
            self.policy = policy
        }
    }

    /// The events of this model: restored, answered, failed, not kept.
    public nonisolated let events: EventBus<Event>

    /// The answer the model holds, if any.
    public private(set) var stored: StoredAnswer<Answer>?

    /// True once the box refused the model's read outright (such as `E_UNKNOWN_OP` for a path it does not carry):
    /// the feature is hidden, not reported as an error, until the name changes, or, for `E_UNKNOWN_OP`, until the
    /// box's build changes (the verdict is sealed with the build, so it holds across a kill).
    public private(set) var isUnavailable = false

    /// The box build that said it does not carry this read (`E_UNKNOWN_OP`); nil when none did. Sealed, so a
    /// relaunch asks nothing of the same build.
    public private(set) var lackingOnBuild: String?

    /// Why the last ask failed, until an answer is recorded: what the model shows instead of a silent blank.
    public private(set) var failure: SessionError?

    private let configuration: Configuration
    private let site: SiteID
    private let store: (any SealedStore)?
    private let wallClock: any WallClock
    private let namer: Namer
    private let asker: Asker
    private let inputs: AsyncStream<Input>
    private let inputContinuation: AsyncStream<Input>.Continuation
    private let sessionEvents: AsyncStream<SessionEvent>

    private var lookers = 0
    private var lifecycle: ServiceLifecycle
    /// The streaming connection now, nil while no stream runs.
    private var connection: Int?
    /// The connection the held answer was asked on (for ``AskPolicy/everyReturn``).
    private var answeredOnConnection: Int?
    /// The last failed ask: not asked again on the beat, and after repeated failures not before its backoff.
    private var failed: AskFailure?
    /// The build of the box the stream runs to now (`hello_ok.box.build`); nil before the first stream.
    private var boxBuild: String?

    /// Makes a model's ask.
    ///
    /// - Parameters:
    ///   - configuration: The model's name, time to live and policy.
    ///   - site: The site whose sealed file holds the answer.
    ///   - store: Where the answer is sealed; nil keeps it in memory only.
    ///   - sessionEvents: The session's bus: the stream's return and its live frames.
    ///   - wallClock: Now, for names and ages.
    ///   - namer: Names what the model wants now.
    ///   - asker: Asks the box.
    public init(
        configuration: Configuration,
        site: SiteID,
        store: (any SealedStore)?,
        sessionEvents: EventBus<SessionEvent>,
        wallClock: any WallClock,
        namer: @escaping Namer,
        asker: @escaping Asker
    ) {
        self.configuration = configuration
        self.site = site
        self.store = store
        self.wallClock = wallClock
        self.namer = namer
        self.asker = asker
        self.events = EventBus()
        lifecycle = ServiceLifecycle(name: configuration.model)
        (inputs, inputContinuation) = AsyncStream<Input>.makeStream()
        self.sessionEvents = sessionEvents.subscribe()
    }

    /// Hands the model a trigger: a view appearing or going, or a pull to refresh. Returns at once.
    public nonisolated func send(_ trigger: AskTrigger) {
        inputContinuation.yield(.trigger(trigger))
    }

    /// The model's name: its word in logs and in the error a second ``run()`` throws.
    public nonisolated var serviceName: String { configuration.model }

    /// Reads the sealed answer back (if this was not done yet) and then handles triggers and session events until
    /// the task is cancelled.
    ///
    /// - Throws: ``ServiceError/alreadyRunning(_:)`` when the model ran before: its inputs have one reader.
    public func run() async throws(ServiceError) {
        if try lifecycle.claimRun() { await readSealed() }
        defer { lifecycle.runEnded() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [sessionEvents, inputContinuation] in
                for await event in sessionEvents { inputContinuation.yield(.session(event)) }
            }
            for await input in inputs {
                await handle(input)
            }
            group.cancelAll()
        }
    }

    /// Hands the model an answer the box sent without being asked (a plan pushed after a command): it replaces the
    /// held answer under the name the model wants now and is sealed, costing no request. It is handled in turn with
    /// triggers, so an ask on the wire when it arrives settles first and the pushed answer is the one kept.
    public nonisolated func adopt(_ answer: Answer) {
        inputContinuation.yield(.adopt(answer))
    }

    /// Ends the service loop once the inputs already sent are handled.
    public nonisolated func finish() {
        inputContinuation.finish()
    }

    /// Reads the model's sealed answer, once, so it shows before anything connects.
    public func restore() async {
        guard lifecycle.claimRestore() else { return }
        await readSealed()
        lifecycle.restoreEnded()
    }

    /// Nothing to do: every answer and verdict is sealed as it is recorded.
    public func persist() async {}

    /// Reads the sealed answer and verdict; an answer or a verdict recorded while the read was suspended is newer
    /// and wins.
    private func readSealed() async {
        guard stored == nil, lackingOnBuild == nil, let store else { return }
        guard
            let sealed = await store.keptContents(name: configuration.model, site: site, as: SealedAsk<Answer>.self),
            stored == nil, lackingOnBuild == nil
        else { return }
        if let build = sealed.lackingOnBuild {
            lackingOnBuild = build
            isUnavailable = true
        }
        guard let answer = sealed.stored else { return }
        stored = answer
        events.publish(.restored(answer))
    }

    private func handle(_ input: Input) async {
        switch input {
        case .trigger(.viewAppeared):
            lookers += 1
            await evaluate(startsLooking: true)
        case .trigger(.viewGone):
            lookers = max(0, lookers - 1)
        case .trigger(.refresh):
            let name = namer(wallClock.nowMs, stored) ?? stored?.name
            if let name { await ask(name, byPerson: true) }
        case .session(.streamReturned(let number)):
            connection = number
            if lookers > 0 { await evaluate(startsLooking: true) }
        case .session(.connection(.streaming(let hello))):
            // A box updated while the app runs may carry what its old build refused: its refusal no longer holds.
            if let previous = boxBuild, previous != hello.box.build, failed?.retryable == false { failed = nil }
            boxBuild = hello.box.build
        case .session(.streamLost), .session(.terminated):
            connection = nil
        case .session(.telemetry):
            if lookers > 0 { await evaluate(startsLooking: false) }
        case .session:
            break
        case .adopt(let answer):
            // A model that wants nothing now keeps the pushed answer under the name it holds; one that holds nothing
            // either has no name to keep it under.
            guard let name = namer(wallClock.nowMs, stored) ?? stored?.name else { return }
            await record(StoredAnswer(answer: answer, name: name, askedAtMs: wallClock.nowMs), askedOn: connection)
        }
    }

    /// Asks when the held answer does not stand; `startsLooking` is true when someone starts looking again.
    private func evaluate(startsLooking: Bool) async {
        guard let name = namer(wallClock.nowMs, stored) else { return }
        if stands(name: name, startsLooking: startsLooking) { return }
        if let failed, !failed.allows(name, startsLooking: startsLooking, nowMs: wallClock.nowMs) { return }
        // A box that said it does not carry this read is not asked again until its build changes.
        if let lackingOnBuild, boxBuild == nil || boxBuild == lackingOnBuild { return }
        // With no stream running, the read would wait in the session for the next one, however long that takes,
        // and leave under a name that may no longer hold: one frame for a stale name and one more for the new. The
        // stream's return evaluates again, by the name that holds then.
        if connection == nil { return }
        await ask(name, byPerson: false)
    }

    private func stands(name: AskName, startsLooking: Bool) -> Bool {
        guard let stored, stored.name == name else { return false }
        switch configuration.policy {
        case .ageKeyed:
            guard startsLooking, let timeToLive = configuration.timeToLive else { return true }
            return wallClock.nowMs - stored.askedAtMs <= timeToLive.wholeMilliseconds
        case .everyReturn:
            return connection != nil && answeredOnConnection == connection
        }
    }

    private func ask(_ name: AskName, byPerson: Bool) async {
        let askedOn = connection
        let askedOfBuild = boxBuild
        do {
            let answer = try await asker(name, byPerson)
            await record(StoredAnswer(answer: answer, name: name, askedAtMs: wallClock.nowMs), askedOn: askedOn)
        } catch {
            await settleFailure(name, error, askedOfBuild: askedOfBuild)
            return
        }
        // The name may have turned while the ask was on the wire: ask again under the new one, never record the
        // new name as answered by the old answer.
        if lookers > 0 { await evaluate(startsLooking: false) }
    }

    /// Nothing is recorded as answered; the failure is remembered, and a box that does not carry the read is
    /// remembered with its build, sealed.
    private func settleFailure(_ name: AskName, _ error: SessionError, askedOfBuild: String?) async {
        let nowMs = wallClock.nowMs
        if var failed {
            failed.record(name: name, error: error, atMs: nowMs)
            self.failed = failed
        } else {
            failed = AskFailure(name: name, error: error, atMs: nowMs)
        }
        isUnavailable = failed?.retryable == false
        failure = error
        events.publish(.failed(name: name, error: error))
        if error.box?.code == .unknownOp, let askedOfBuild {
            lackingOnBuild = askedOfBuild
            await seal()
        }
    }

    private func record(_ answer: StoredAnswer<Answer>, askedOn: Int?) async {
        stored = answer
        failed = nil
        isUnavailable = false
        lackingOnBuild = nil
        failure = nil
        answeredOnConnection = askedOn ?? connection
        events.publish(.answered(answer))
        await seal()
    }

    /// Writes the answer and the verdict to the model's sealed file; a write that fails is told on the bus.
    private func seal() async {
        guard let store else { return }
        let sealed = SealedAsk(stored: stored, lackingOnBuild: lackingOnBuild)
        do throws(SealError) {
            try await store.keepContents(sealed, name: configuration.model, site: site)
        } catch {
            events.publish(.notKept(error))
        }
    }
}
