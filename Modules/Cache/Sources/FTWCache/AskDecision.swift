import FTWClockSeam

/// The age-keyed rule of cache.md §1, once: who is looking, whether the held answer stands, what the last failure
/// forbids, whether the box carries the read, and whether a stream runs. A value with no clock and no I/O: a model
/// hands it what happened (``AskInput``) with the time and a way to name what it wants now, and does what it answers
/// (``AskAction``). ``LiveAsk`` and the history both drive one, so the rule cannot drift between them.
///
/// The rule: an answer stands while the name it was asked under holds; when someone starts looking again (a view
/// appears, the stream comes back) an answer older than its time to live no longer stands, and under
/// ``AskPolicy/everyReturn`` nothing stands past the connection it was asked on. Only a stream asks: with none
/// running, a want waits for the stream's return and is asked under the name that holds then. A pull to refresh is a
/// person's ask and always sends. A failure is not asked again on the beat, nor by a look queued before it
/// (``AskFailure``); a box that refused the read outright (`E_UNKNOWN_OP`, or a tier refusal of its gate:
/// ``AskFailure/Verdict/refusals``) is not asked again until its build changes, not even by a pull, which that refusal
/// answers.
///
/// Each input has a place in the order the model queued it (``AskInbox``): a model handles its inputs one at a time
/// and runs each ask before the next input, so an input may be handled after a failure it was queued before. The
/// place tells the two apart.
public struct AskDecision: Sendable, Hashable {
    /// What differs between the models that share the rule.
    public struct Configuration: Sendable, Hashable {
        /// How old an answer may be when someone starts looking again; nil when only the name decides.
        public var timeToLive: Duration?
        /// The rule for asking again.
        public var policy: AskPolicy
        /// Whether the first live frame makes the answer stand once per launch with nobody looking (the history's
        /// priming, under ``AskPolicy/ageKeyed`` only).
        public var primesOnce: Bool
        /// Whether a view that appears while no stream runs also wants the answer once: asked on the stream's return
        /// even if the view went away meanwhile (a node view opened during a dial still has its window asked).
        public var viewWantsOnce: Bool
        /// Whether a live frame says the stream runs on its connection (the history primes on the first live frame);
        /// otherwise only the stream's return does, so the return is the first moment an ask goes and a read that
        /// failed before it cannot be asked again by that same return.
        public var liveFrameCarriesStream: Bool

        /// Makes a configuration.
        public init(
            timeToLive: Duration?,
            policy: AskPolicy,
            primesOnce: Bool = false,
            viewWantsOnce: Bool = false,
            liveFrameCarriesStream: Bool = false
        ) {
            self.timeToLive = timeToLive
            self.policy = policy
            self.primesOnce = primesOnce && policy == .ageKeyed
            self.viewWantsOnce = viewWantsOnce
            self.liveFrameCarriesStream = liveFrameCarriesStream
        }
    }

    /// The history's rule (cache.md §6): no time to live, primed once on the first live frame, and a node view (or
    /// the grid widget) that wanted the window while no stream ran has it asked when the stream comes. A refusal of
    /// `hist.query` is remembered with the box's build, as for every read (cache.md §1).
    public static func history(policy: AskPolicy) -> Configuration {
        Configuration(
            timeToLive: nil,
            policy: policy,
            primesOnce: true,
            viewWantsOnce: true,
            liveFrameCarriesStream: true
        )
    }

    /// The name an answer was recorded under, and when it was asked (wall clock, Unix ms).
    public struct Held: Sendable, Hashable {
        /// The name it was asked under.
        public var name: AskName
        /// When it was asked.
        public var askedAtMs: Int64

        /// Makes a held answer's record.
        public init(name: AskName, askedAtMs: Int64) {
            self.name = name
            self.askedAtMs = askedAtMs
        }
    }

    /// An ask handed out and not yet settled: what its answer or failure is recorded against.
    private struct OnWire: Sendable, Hashable {
        var name: AskName
        var connection: Int?
        var build: String?
    }

    /// The model's own differences.
    public let configuration: Configuration
    /// The answer held, if any.
    public private(set) var held: Held?
    /// True once the box refused the read outright: the feature is hidden, not reported as an error.
    public private(set) var isUnavailable = false
    /// The box build that said it does not carry this read (``AskFailure/Verdict/refusals``); nil when none did.
    public private(set) var lackingOnBuild: String?
    /// The last failed ask, until an answer is recorded.
    public private(set) var failure: AskFailure?

    private var lookers = 0
    /// The streaming connection now, nil while no stream runs.
    private var connection: Int?
    /// The connection the held answer was asked on (for ``AskPolicy/everyReturn``).
    private var answeredOnConnection: Int?
    /// The build of the box the stream runs to now (`hello_ok.box.build`); nil before the first stream.
    private var boxBuild: String?
    /// Someone wanted the answer once while no stream ran: asked on the stream's return, by the name then.
    private var waitingForStream = false
    /// The answer stood after a live frame: priming happens once per launch.
    private var primed = false
    private var onWire: OnWire?
    /// The last weighing could not name what the model wants (the home's zone not known yet): the next frame may.
    private var unnamed = false
    /// The place of the input being handled.
    private var place = 0
    /// The latest place handed to the rule.
    private var latestPlace = 0

    /// A decision with nothing held, nobody looking and no stream.
    public init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// Takes what happened, in the order it happened, and says what to do: each input is placed after every input
    /// before it. For a model whose inputs wait in a queue while an ask runs, ``handle(_:at:nowMs:name:)``.
    ///
    /// - Parameters:
    ///   - input: What happened.
    ///   - nowMs: Now (wall clock, Unix ms), for ages.
    ///   - name: Names what the model wants now; nil when it wants nothing. Called only when an ask is weighed.
    public mutating func handle(_ input: AskInput, nowMs: Int64, name: () -> AskName?) -> AskAction {
        handle(input, at: latestPlace + 1, nowMs: nowMs, name: name)
    }

    /// Takes what happened and says what to do.
    ///
    /// - Parameters:
    ///   - input: What happened.
    ///   - place: Where the input was queued (``AskInbox``); for ``AskInput/answered(askedAtMs:)`` and
    ///     ``AskInput/failed(_:)``, the place of the last input queued when the outcome was learned, so that a look
    ///     queued before a failure is no new look.
    ///   - nowMs: Now (wall clock, Unix ms), for ages.
    ///   - name: Names what the model wants now; nil when it wants nothing. Called only when an ask is weighed.
    public mutating func handle(
        _ input: AskInput,
        at place: Int,
        nowMs: Int64,
        name: () -> AskName?
    ) -> AskAction {
        self.place = place
        latestPlace = max(latestPlace, place)
        switch input {
        case .viewAppeared:
            lookers += 1
            return evaluate(startsLooking: true, nowMs: nowMs, name: name, remember: configuration.viewWantsOnce)
        case .viewGone:
            lookers = max(0, lookers - 1)
        case .wantsOnce:
            return evaluate(startsLooking: true, nowMs: nowMs, name: name, remember: true)
        case .refresh:
            // The same build cannot answer otherwise: the remembered refusal answers the pull, and nothing is sent.
            if isRefusedByThisBuild { return .none }
            guard let wanted = name() ?? held?.name else { return .none }
            return handOut(wanted, byPerson: true)
        case .streamReturned(let number):
            connection = number
            if wants { return evaluate(startsLooking: true, nowMs: nowMs, name: name) }
        case .liveFrame(let number):
            if configuration.liveFrameCarriesStream { connection = number }
            if wants { return evaluate(startsLooking: false, nowMs: nowMs, name: name) }
        case .streamLost:
            connection = nil
        case .hello(let build):
            // A box updated while the app runs may carry what its old build refused: its refusal no longer holds.
            if let previous = boxBuild, previous != build, failure?.retryable == false { failure = nil }
            boxBuild = build
        case .answered(let askedAtMs):
            let asked = onWire
            onWire = nil
            guard let asked else { return .none }
            record(Held(name: asked.name, askedAtMs: askedAtMs), askedOn: asked.connection)
            // The name may have turned while the ask was on the wire: ask again under the new one.
            if lookers > 0 { return evaluate(startsLooking: false, nowMs: nowMs, name: name) }
        case .failed(let verdict):
            let asked = onWire
            onWire = nil
            guard let asked else { return .none }
            return settleFailure(asked, verdict)
        case .adopted:
            // A model that wants nothing now keeps the pushed answer under the name it holds.
            guard let kept = name() ?? held?.name else { return .none }
            record(Held(name: kept, askedAtMs: nowMs), askedOn: connection)
            return .keep(kept)
        case .restored(let restored, let lacking):
            if let lacking {
                lackingOnBuild = lacking
                isUnavailable = true
            }
            if let restored { held = restored }
        }
        return .none
    }

    /// The connection the stream runs on, as the rule knows it; nil while none runs.
    public var streamConnection: Int? { connection }

    /// The earliest wall-clock time (Unix ms) at which a live frame on the known connection can change what the rule
    /// says, when nothing else happens meanwhile; `Int64.max` for never. On the beat only a turned name asks: an
    /// answer's time to live and a failure count only when someone starts looking again, or under a new name. So a
    /// frame matters while someone waits for the stream, while the name could not be worked out, while priming with
    /// no failure, and otherwise, with someone looking, once the name can have turned. After a failure a frame asks
    /// nothing for a model nobody looks at, priming or not; nor, for any model, while the box's build is one that
    /// refused the read.
    ///
    /// - Parameters:
    ///   - nowMs: Now (wall clock, Unix ms).
    ///   - turns: When the model's name can change with the clock.
    public func nextBeatMs(after nowMs: Int64, turns: NameTurns) -> Int64 {
        // A build that refused the read cannot answer it under any name: only its successor's hello can matter.
        guard wants, boxBuild == nil || !isRefusedByThisBuild else { return .max }
        if waitingForStream || unnamed { return nowMs }
        if failure != nil {
            if lookers == 0 { return .max }
        } else if configuration.primesOnce && !primed {
            return nowMs
        }
        switch turns {
        case .anyTime: return nowMs
        case .never: return .max
        case .every(let span):
            let spanMs = max(1, span.wholeMilliseconds)
            let turned = nowMs >= 0 ? nowMs / spanMs + 1 : (nowMs + 1) / spanMs
            return turned * spanMs
        }
    }

    /// Whether a live frame or the stream's return should weigh an ask: to prime, for someone looking, or for
    /// someone who wanted it while no stream ran.
    private var wants: Bool { (configuration.primesOnce && !primed) || lookers > 0 || waitingForStream }

    /// Asks when the held answer does not stand; `startsLooking` is true when someone starts looking again.
    private mutating func evaluate(
        startsLooking: Bool,
        nowMs: Int64,
        name: () -> AskName?,
        remember: Bool = false
    ) -> AskAction {
        guard let wanted = name() else {
            unnamed = true
            return .none
        }
        unnamed = false
        if stands(wanted, startsLooking: startsLooking, nowMs: nowMs) {
            if configuration.primesOnce { primed = true }
            return .none
        }
        if let failure {
            // After a failure only someone who starts looking after it asks again; on the beat, only an open view
            // whose name turned.
            let looksAgain = startsLooking && failure.isNewLook(at: place)
            if !looksAgain, lookers == 0 { return .none }
            if !failure.allows(wanted, looksAgain: looksAgain) { return .none }
        }
        // A box that said it does not carry this read is not asked again until its build changes.
        if isRefusedByThisBuild { return .none }
        // With no stream running, the read would wait in the session for the next one, however long that takes,
        // and leave under a name that may no longer hold. The stream's return weighs it again, by the name then.
        guard connection != nil else {
            if remember { waitingForStream = true }
            return .none
        }
        waitingForStream = false
        return handOut(wanted, byPerson: false)
    }

    /// Whether the box said it does not carry this read and its build has not changed since (or is not known yet
    /// since a relaunch).
    private var isRefusedByThisBuild: Bool {
        guard let lackingOnBuild else { return false }
        return boxBuild == nil || boxBuild == lackingOnBuild
    }

    private func stands(_ wanted: AskName, startsLooking: Bool, nowMs: Int64) -> Bool {
        guard let held, held.name == wanted else { return false }
        switch configuration.policy {
        case .ageKeyed:
            guard startsLooking, let timeToLive = configuration.timeToLive else { return true }
            return nowMs - held.askedAtMs <= timeToLive.wholeMilliseconds
        case .everyReturn:
            return connection != nil && answeredOnConnection == connection
        }
    }

    private mutating func handOut(_ wanted: AskName, byPerson: Bool) -> AskAction {
        onWire = OnWire(name: wanted, connection: connection, build: boxBuild)
        return .ask(wanted, byPerson: byPerson)
    }

    private mutating func record(_ answer: Held, askedOn: Int?) {
        held = answer
        failure = nil
        isUnavailable = false
        lackingOnBuild = nil
        answeredOnConnection = askedOn ?? connection
        if configuration.primesOnce { primed = true }
    }

    /// Nothing is recorded as answered; the failure is remembered, and a box that does not carry the read is
    /// remembered with its build, to be sealed.
    private mutating func settleFailure(_ asked: OnWire, _ verdict: AskFailure.Verdict) -> AskAction {
        failure = AskFailure(name: asked.name, verdict: verdict, learnedAt: place)
        isUnavailable = failure?.retryable == false
        guard verdict.missingRoute, let build = asked.build else { return .none }
        lackingOnBuild = build
        return .sealVerdict
    }
}
