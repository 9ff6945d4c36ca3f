import FTWBoxProtocol
public import FTWBus
public import FTWClockSeam
public import FTWSealInterface
public import FTWSessionInterface

/// The age-keyed ask: one model's answer from the box, asked again only when the data's age says so.
///
/// A model names what it wants by the data's age (``AskName``). The answer stands while that name holds: a view
/// that stays open asks again only when the name changes. When someone starts looking again (a view appears, the
/// stream comes back), an answer older than its time to live no longer stands. Nothing else asks — no timer, no
/// redial by itself. A pull to refresh always sends (but for a route the box refused for its build) and goes first;
/// sent while the model's own ask of the same name is out, it joins that ask instead of following it, and sends its
/// own request, once, if that ask was already on the wire and fails. A name that
/// changes while an ask is on the wire waits for it to settle and is then asked under the new name; an answer is only
/// ever recorded under the name it was asked under.
/// Answers are sealed in the model's own file and read back at launch, so after a kill they stand by the same rules.
///
/// The rule itself is an ``AskDecision`` and its loop an `AskLoop`, both shared with the history; this actor runs
/// the asks the loop hands out, keeps the answer and seals it.
///
/// ## Concurrency
/// An actor; ``run()`` is its service loop and the only place asks happen, one at a time, so every trigger that
/// arrives while an ask is on the wire is handled once that ask has settled, by its place in the queue (a look
/// queued before a failure is no new look). Triggers and session events reach the loop through one ``AskInbox``, in
/// order, which has one reader: a second ``run()`` is refused. The one exception to waiting is a pull that joins the
/// ask out: a child task follows the pulls and joins it while the loop waits.
public actor LiveAsk<Answer: Sendable & SealedCodable & Equatable>: ClientService, AskLoopModel {
    /// Names what the model wants now, given the answer it holds; nil when it wants nothing.
    public typealias Namer = @Sendable (_ nowMs: Int64, _ stored: StoredAnswer<Answer>?) -> AskName?

    /// Asks the box under `name`; `byPerson` is true for a pull to refresh, which goes first in the read order.
    ///
    /// It throws the session's `SessionError` when the read failed (the failure rule reads it: retryable, refused,
    /// not carried) and the model's own error when the answer came and could not be taken (retryable, see
    /// ``AskFailure/Verdict``); either reaches ``failure`` and ``Event/failed(name:error:)`` as thrown.
    public typealias Asker = @Sendable (_ name: AskName, _ byPerson: Bool) async throws -> Answer

    /// What a model's ask did, for observers.
    public enum Event: Sendable {
        /// The answer kept in the sealed file was read back at launch.
        case restored(StoredAnswer<Answer>)
        /// A new answer arrived and was recorded under the name it was asked under.
        case answered(StoredAnswer<Answer>)
        /// An ask failed; nothing was recorded. The error is the one the asker threw.
        case failed(name: AskName, error: any Error)
        /// The answer or the verdict could not be sealed; it is held in memory and the previous file, if any, stays.
        case notKept(SealError)
    }

    package enum Input: Sendable {
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
        /// When the name can change with the clock alone: which live frames the model's loop needs to see.
        public var nameTurns: NameTurns

        /// Makes a configuration.
        public init(model: String, timeToLive: Duration?, policy: AskPolicy, nameTurns: NameTurns = .anyTime) {
            self.model = model
            self.timeToLive = timeToLive
            self.policy = policy
            self.nameTurns = nameTurns
        }
    }

    /// The events of this model: restored, answered, failed, not kept.
    public nonisolated let events: EventBus<Event>

    /// The answer the model holds, if any.
    public private(set) var stored: StoredAnswer<Answer>? {
        didSet { storedFromFile = false }
    }
    /// Whether ``stored`` was read back from the sealed file rather than answered on this run: what its moment rests
    /// on.
    private(set) var storedFromFile = false
    /// Whether an answer is held: the rule records every answer ``stored`` takes, so it is asked without copying the
    /// answer out, which in this generic code costs two runtime metadata lookups a read.
    private var holdsAnswer: Bool { loop.decision.held != nil }

    /// True once the box refused the model's read outright (such as `E_UNKNOWN_OP` for a path it does not carry):
    /// the feature is hidden, not reported as an error, until the name changes, or, for `E_UNKNOWN_OP`, until the
    /// box's build changes (the verdict is sealed with the build, so it holds across a kill).
    public var isUnavailable: Bool { loop.decision.isUnavailable }

    /// The box build that said it does not carry this read (`E_UNKNOWN_OP`); nil when none did. Sealed, so a
    /// relaunch asks nothing of the same build.
    public var lackingOnBuild: String? { loop.decision.lackingOnBuild }

    /// Why the last ask failed, until an answer is recorded: what the model shows instead of a silent blank. The
    /// error the asker threw: the session's when the read failed, the model's own when its answer could not be taken.
    public private(set) var failure: (any Error)?

    private let configuration: Configuration
    private let site: SiteID
    private let store: (any SealedStore)?
    package let wallClock: any WallClock
    private let namer: Namer
    private let personNamer: Namer?
    private let asker: Asker
    package let askInbox: AskInbox<Input>
    private let sessionEvents: BusStream<SessionEvent>

    private var lifecycle: ServiceLifecycle
    /// Who is looking, whether the answer stands, the failure and refusal memory, the stream, the ask out.
    package var loop: AskLoop
    /// The answer the box pushed unasked, while the loop weighs it.
    private var adopting: Answer?

    /// Makes a model's ask.
    ///
    /// - Parameters:
    ///   - configuration: The model's name, time to live and policy.
    ///   - site: The site whose sealed file holds the answer.
    ///   - store: Where the answer is sealed; nil keeps it in memory only.
    ///   - sessionEvents: The session's bus: the stream's return and its live frames.
    ///   - wallClock: Now, for names and ages.
    ///   - namer: Names what the model wants now.
    ///   - personNamer: Names a pull to refresh when `namer` names nothing (the prices before the home's time zone
    ///     is known): a person's ask always sends. Nil falls back to the held answer's name.
    ///   - asker: Asks the box.
    public init(
        configuration: Configuration,
        site: SiteID,
        store: (any SealedStore)?,
        sessionEvents: EventBus<SessionEvent>,
        wallClock: any WallClock,
        namer: @escaping Namer,
        personNamer: Namer? = nil,
        asker: @escaping Asker
    ) {
        self.configuration = configuration
        self.site = site
        self.store = store
        self.wallClock = wallClock
        self.namer = namer
        self.personNamer = personNamer
        self.asker = asker
        let loop = AskLoop(
            .init(timeToLive: configuration.timeToLive, policy: configuration.policy),
            turns: configuration.nameTurns,
            followsStream: false
        )
        self.loop = loop
        self.events = EventBus()
        lifecycle = ServiceLifecycle(name: configuration.model)
        askInbox = AskInbox()
        let beat = loop.beat
        self.sessionEvents = sessionEvents.subscribe(where: { [wallClock] in beat.admits($0, nowMs: wallClock.nowMs) })
    }

    /// Hands the model a trigger: a view appearing or going, or a pull to refresh. Returns at once.
    public nonisolated func send(_ trigger: AskTrigger) {
        askInbox.send(.trigger(trigger), isPull: trigger == .refresh)
    }

    /// The model's name: its word in logs and in the error a second ``run()`` throws.
    public nonisolated var serviceName: String { configuration.model }

    /// Reads the sealed answer back (if this was not done yet) and then handles triggers and session events until
    /// the task is cancelled.
    ///
    /// - Throws: `ServiceError.alreadyRunning(_:)` when the model ran before: its inputs have one reader.
    public func run() async throws(ServiceError) {
        if try lifecycle.claimRun() { await readSealed() }
        defer { lifecycle.runEnded() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [sessionEvents, askInbox] in
                for await event in sessionEvents { askInbox.send(.session(event)) }
            }
            group.addTask { [askInbox] in
                await askInbox.followPulls(again: .trigger(.refresh)) { await self.joining(pullAt: $0) }
            }
            for await entry in askInbox.entries where askInbox.take(entry) {
                await handle(entry)
            }
            group.cancelAll()
        }
    }

    /// Hands the model an answer the box sent without being asked (a plan pushed after a command): it replaces the
    /// held answer under the name the model wants now and is sealed, costing no request. It is handled in turn with
    /// triggers, so an ask on the wire when it arrives settles first and the pushed answer is the one kept.
    public nonisolated func adopt(_ answer: Answer) {
        askInbox.send(.adopt(answer))
    }

    /// Ends the service loop once the inputs already sent are handled.
    public nonisolated func finish() {
        askInbox.finish()
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
        guard !holdsAnswer, lackingOnBuild == nil, let store else { return }
        guard
            var sealed = await store.keptContents(name: configuration.model, site: site, as: SealedAsk<Answer>.self),
            !holdsAnswer, lackingOnBuild == nil
        else { return }
        // The answer is moved out of what was read and bound once, not copied: in this generic code every copy of
        // an optional answer goes through the runtime's value witnesses.
        guard let answer = sealed.stored.take() else {
            restoreDecision(nil, lackingOnBuild: sealed.lackingOnBuild)
            return
        }
        restoreDecision(
            AskDecision.Held(name: answer.name, askedAtMs: answer.askedAtMs),
            lackingOnBuild: sealed.lackingOnBuild
        )
        stored = answer
        storedFromFile = true
        events.publish(.restored(answer))
    }

    private func handle(_ entry: AskInbox<Input>.Entry) async {
        let place = entry.place
        switch entry.input {
        case .trigger(.viewAppeared): await decide(.viewAppeared, at: place)
        case .trigger(.viewGone): await decide(.viewGone, at: place)
        case .trigger(.refresh): await decide(.refresh, at: place)
        case .session(let event): await decide(event, at: place)
        case .adopt(let answer):
            adopting = answer
            await decide(.adopted, at: place)
            adopting = nil
        }
        settleBeat()
    }

    /// When the pull at `place` wants what the ask out is asked under and the loop has not reached that pull: the
    /// same ask as a person's, which the session shares with the ask out and puts first; the loop passes over the
    /// pull, and the answer is the ask's own. Says whether the pull still needs a request of its own: when the read
    /// it shared was already on the wire and failed (a queued read it put first was its own request).
    private func joining(pullAt place: Int) -> (@Sendable () async -> Bool)? {
        guard let name = loop.asking?.name,
            joinsAsk(pullAt: place, wanting: wanted(nowMs: wallClock.nowMs, byPerson: true) ?? stored?.name)
        else { return nil }
        return { [asker] in
            do {
                _ = try await asker(name, true)
                return false
            } catch {
                return (error as? SessionError)?.sharedOnWire == true
            }
        }
    }

    /// Asks the box under `name` and holds the answer it gives.
    package func ask(_ name: AskName, byPerson: Bool) async -> AskLoop.Outcome<any Error> {
        do {
            let answer = try await asker(name, byPerson)
            let askedAtMs = wallClock.nowMs
            stored = StoredAnswer(answer: answer, name: name, askedAtMs: askedAtMs)
            return .answered(askedAtMs: askedAtMs)
        } catch {
            failure = error
            return .failed(error)
        }
    }

    /// Tells the answer just held and seals it, or tells the failure.
    package func told(_ outcome: AskLoop.Outcome<any Error>, name: AskName) async {
        switch outcome {
        case .answered: await recorded()
        case .failed(let error): events.publish(.failed(name: name, error: error))
        }
    }

    /// Seals the verdict the loop remembers, with the answer held.
    package func sealVerdict() async {
        await seal()
    }

    /// Holds the answer the box pushed under `name`, tells it and seals it.
    package func keep(under name: AskName) async {
        guard let adopting else { return }
        stored = StoredAnswer(answer: adopting, name: name, askedAtMs: wallClock.nowMs)
        await recorded()
    }

    /// What the model wants now; a person's pull falls back on ``personNamer`` (the decision then on the held name).
    package func wanted(nowMs: Int64, byPerson: Bool) -> AskName? {
        namer(nowMs, stored) ?? (byPerson ? personNamer?(nowMs, stored) : nil)
    }

    /// The answer just held is told and sealed, with the verdict the decision cleared.
    private func recorded() async {
        guard let stored else { return }
        failure = nil
        events.publish(.answered(stored))
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
