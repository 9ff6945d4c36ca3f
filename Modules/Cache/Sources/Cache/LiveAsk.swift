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
/// The rule itself is an ``AskDecision``, shared with the history; this actor runs the asks it hands out, keeps the
/// answer and seals it.
///
/// ## Concurrency
/// An actor; ``run()`` is its service loop and the only place asks happen, one at a time, so every trigger that
/// arrives while an ask is on the wire is handled once that ask has settled. Triggers and session events reach the
/// loop through one stream, in order, which has one reader: a second ``run()`` is refused.
public actor LiveAsk<Answer: Sendable & SealedCodable & Equatable>: ClientService {
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
    public private(set) var stored: StoredAnswer<Answer>?

    /// True once the box refused the model's read outright (such as `E_UNKNOWN_OP` for a path it does not carry):
    /// the feature is hidden, not reported as an error, until the name changes, or, for `E_UNKNOWN_OP`, until the
    /// box's build changes (the verdict is sealed with the build, so it holds across a kill).
    public var isUnavailable: Bool { decision.isUnavailable }

    /// The box build that said it does not carry this read (`E_UNKNOWN_OP`); nil when none did. Sealed, so a
    /// relaunch asks nothing of the same build.
    public var lackingOnBuild: String? { decision.lackingOnBuild }

    /// Why the last ask failed, until an answer is recorded: what the model shows instead of a silent blank. The
    /// error the asker threw: the session's when the read failed, the model's own when its answer could not be taken.
    public private(set) var failure: (any Error)?

    private let configuration: Configuration
    private let site: SiteID
    private let store: (any SealedStore)?
    private let wallClock: any WallClock
    private let namer: Namer
    private let personNamer: Namer?
    private let asker: Asker
    private let inputs: BusStream<Input>
    private let inputContinuation: BusFeed<Input>
    private let sessionEvents: BusStream<SessionEvent>
    /// Which live frames reach the loop: those after the name can have turned, while someone looks.
    private let beat: BeatGate

    private var lifecycle: ServiceLifecycle
    /// Who is looking, whether the answer stands, the failure and refusal memory, the stream: the rule's state.
    private var decision: AskDecision

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
        decision = AskDecision(.init(timeToLive: configuration.timeToLive, policy: configuration.policy))
        self.events = EventBus()
        lifecycle = ServiceLifecycle(name: configuration.model)
        (inputs, inputContinuation) = BusStream<Input>.makeStream()
        let beat = BeatGate()
        self.beat = beat
        self.sessionEvents = sessionEvents.subscribe(where: { [wallClock] in beat.admits($0, nowMs: wallClock.nowMs) })
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
        let held = sealed.stored.map { AskDecision.Held(name: $0.name, askedAtMs: $0.askedAtMs) }
        _ = decision.handle(.restored(held, lackingOnBuild: sealed.lackingOnBuild), nowMs: wallClock.nowMs) { nil }
        guard let answer = sealed.stored else { return }
        stored = answer
        events.publish(.restored(answer))
    }

    private func handle(_ input: Input) async {
        switch input {
        case .trigger(.viewAppeared): await decide(.viewAppeared)
        case .trigger(.viewGone): await decide(.viewGone)
        case .trigger(.refresh): await decide(.refresh)
        case .session(let event):
            if let input = AskInput(event) { await decide(input) }
        case .adopt(let answer): await decide(.adopted, adopting: answer)
        }
        let nowMs = wallClock.nowMs
        beat.set(
            dueMs: decision.nextBeatMs(after: nowMs, turns: configuration.nameTurns),
            follows: false,
            knownConnection: nil
        )
    }

    /// Hands the decision what happened and does what it says, until it says nothing more.
    private func decide(_ input: AskInput, adopting: Answer? = nil) async {
        var action = weigh(input)
        while true {
            switch action {
            case .none:
                return
            case .sealVerdict:
                await seal()
                return
            case .keep(let name):
                guard let adopting else { return }
                stored = StoredAnswer(answer: adopting, name: name, askedAtMs: wallClock.nowMs)
                await recorded()
                return
            case .ask(let name, let byPerson):
                do {
                    let answer = try await asker(name, byPerson)
                    let askedAtMs = wallClock.nowMs
                    stored = StoredAnswer(answer: answer, name: name, askedAtMs: askedAtMs)
                    // The name may have turned while the ask was on the wire: weighed by the answer now held.
                    action = weigh(.answered(askedAtMs: askedAtMs))
                    await recorded()
                } catch {
                    failure = error
                    action = weigh(.failed(AskFailure.Verdict(error)))
                    events.publish(.failed(name: name, error: error))
                }
            }
        }
    }

    /// The decision's answer to `input`, naming what the model wants now only if it asks.
    private func weigh(_ input: AskInput) -> AskAction {
        let nowMs = wallClock.nowMs
        let held = stored
        let person = input == .refresh ? personNamer : nil
        return decision.handle(input, nowMs: nowMs) {
            namer(nowMs, held) ?? person?(nowMs, held)
        }
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
