import BoxProtocol
public import Bus
public import Cache
public import ClockSeam
public import SealInterface
public import SessionInterface

/// The history of a home as the box's tiles: 48 hours of four series at five minutes, primed once, asked again only
/// when the five minutes turn while a node's view is open, sealed so a cold start draws it in frame one.
///
/// The flows (module README): the first live frame after launch asks for the window once with no view open, the
/// tile still filling first when older tiles are missing too; after that an open node view asks again each time the
/// five-minute name turns, checked on the stream's beat; the grid widget joins a load on the wire. Only closed tiles
/// are offered as held. A tile leaves the screen only when its replacement lands, so the right edge never pulls
/// back, and tiles landing within one display frame reach observers as one change.
///
/// ## Concurrency
/// An actor. ``run()`` is its service: one loop handles triggers and session events in order and runs every load
/// itself, so a trigger arriving while a load is on the wire is handled once it settled (the grid widget's want
/// then finds the window standing: it shared the load). A second child task gathers landed tiles once per display
/// frame. The session hands tiles over synchronously into a locked inbox; the model takes them on the actor.
public actor HistoryModel {
    private enum Input: Sendable {
        case trigger(HistoryTrigger)
        case session(SessionEvent)
    }

    /// Whether a read is on the wire.
    private enum Phase {
        /// No read on the wire. Goes to `.reading` when a load sends a query.
        case idle
        /// A query is on the wire; landing tiles are checked against its plan, `landed` names the ones already
        /// taken. Goes back to `.idle` when the read settles, answered or not.
        case reading(PlannedRead, landed: Set<String>)
    }

    private struct State {
        var phase = Phase.idle
        var held = HeldHistory()
        /// Node views open now.
        var lookers = 0
        /// The streaming connection now, nil while no stream runs.
        var connection: Int?
        /// Someone wanted the window while no stream ran: it is planned when the stream comes, under the name that
        /// holds then, not before (a load planned during a dial can go out after its five minutes turned).
        var waitingForStream = false
        /// The connection the held window was answered on (for ``AskPolicy/everyReturn``).
        var answeredOnConnection: Int?
        /// Set once the window stood after a live frame: priming happens once per launch.
        var primed = false
        /// The last failed load: never asked again on the stream's beat, only when someone starts looking again
        /// (a node view appears, the grid wants the window, the stream comes back) or, with a node open, when the
        /// name turns; repeated failures wait out a backoff.
        var failure: AskFailure?
        var restored = false
        /// The bytes last sealed (or read back), so an unchanged window is not written again.
        var sealed: [UInt8]?
        /// The window's step for the tile span it last covered: the plan depends on nothing else, and a cold start
        /// should not plan twice.
        var step: (first: Int64, last: Int64, stepMs: Int64)?
    }

    /// Changes of the window, refused tiles and files, failed loads.
    public nonisolated let events: EventBus<HistoryEvent>

    /// The window as it was last published: what a chart draws now.
    public private(set) var window: HistoryWindow

    private let site: SiteID
    private let store: (any SealedStore)?
    private let session: any BoxSession
    private let clock: any Clock<Duration>
    private let wallClock: any WallClock
    private let policy: AskPolicy
    private let configuration: Configuration
    private let sessionEvents: AsyncStream<SessionEvent>
    private let inputs: AsyncStream<Input>
    private let inputContinuation: AsyncStream<Input>.Continuation
    private let inbox = LandingInbox()
    private var state = State()

    /// Makes the model of one home's history; it subscribes to the session's bus at once, so no live frame is
    /// missed before ``run()`` starts.
    ///
    /// - Parameters:
    ///   - site: The home, whose `tiles-<site>` file holds the sealed window.
    ///   - store: Where the window is sealed; nil keeps it in memory only.
    ///   - session: Sends `hist.query` in its turn.
    ///   - sessionEvents: The session's bus: live frames (the beat), the stream's return and loss.
    ///   - clock: Times the display frame that gathers landing tiles.
    ///   - wallClock: Now, for the window and its five-minute name.
    ///   - policy: `.ageKeyed` primes once and asks by the name; `.everyReturn` is today's app: no priming, and the
    ///     window is asked when a node view opens, again on every return.
    ///   - configuration: The series, window and display frame.
    public init(
        site: SiteID,
        store: (any SealedStore)?,
        session: any BoxSession,
        sessionEvents: EventBus<SessionEvent>,
        clock: any Clock<Duration>,
        wallClock: any WallClock,
        policy: AskPolicy,
        configuration: Configuration = Configuration()
    ) {
        self.site = site
        self.store = store
        self.session = session
        self.clock = clock
        self.wallClock = wallClock
        self.policy = policy
        self.configuration = configuration
        self.events = EventBus()
        self.sessionEvents = sessionEvents.subscribe()
        (inputs, inputContinuation) = AsyncStream<Input>.makeStream()
        window = HistoryWindow.build(
            from: HeldHistory(),
            series: configuration.series,
            nowMs: wallClock.nowMs,
            spanMs: configuration.spanMs,
            stepMs: configuration.resolution.stepMs
        )
    }

    /// Hands the model a trigger: a node view appearing or going, the grid widget wanting the window. Returns at once.
    public nonisolated func send(_ trigger: HistoryTrigger) {
        inputContinuation.yield(.trigger(trigger))
    }

    /// Restores the sealed window (if not done yet), then handles triggers, session events and landing tiles until
    /// ``finish()`` or cancellation.
    public func run() async {
        await restore()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [sessionEvents, inputContinuation] in
                for await event in sessionEvents { inputContinuation.yield(.session(event)) }
            }
            group.addTask { [inbox, clock, configuration] in
                for await _ in inbox.rings {
                    try? await clock.sleep(for: configuration.displayFrame)
                    await self.gather()
                }
            }
            for await input in inputs {
                await handle(input)
            }
            inbox.finish()
            group.cancelAll()
        }
        gather()
    }

    /// Ends the service loop once the inputs already sent are handled.
    public nonisolated func finish() {
        inputContinuation.finish()
    }

    /// Reads the sealed window back, once, and publishes it: cheap enough for frame one of a cold start, before
    /// anything connects. A file that fails to open or to read leaves the model empty.
    public func restore() async {
        guard !state.restored, let store else { return }
        state.restored = true
        guard let bytes = await store.read(.tiles(site)), state.held.tiles.isEmpty else { return }
        do {
            state.held = try TilesFile.decode(bytes, series: configuration.series)
            state.sealed = bytes
        } catch {
            events.publish(.fileRefused(error))
            return
        }
        publish()
    }

    /// Seals the window in `tiles-<site>`: its closed tiles, the tile still filling and the name it was asked
    /// under; tiles that fell out of the window are dropped first. Writes nothing when nothing changed.
    public func persist() async {
        guard let store else { return }
        state.held.drop(endingBy: wallClock.nowMs - configuration.spanMs)
        let bytes = TilesFile.encode(state.held, series: configuration.series)
        guard bytes != state.sealed else { return }
        do {
            try await store.write(bytes, to: .tiles(site))
            state.sealed = bytes
        } catch {
            events.publish(.notKept(error))
        }
    }

    private func handle(_ input: Input) async {
        switch input {
        case .trigger(.nodeViewAppeared):
            state.lookers += 1
            await evaluate(startsLooking: true)
        case .trigger(.nodeViewGone):
            state.lookers = max(0, state.lookers - 1)
        case .trigger(.gridWantsWindow):
            await evaluate(startsLooking: true)
        case .session(.streamReturned(let connection)):
            state.connection = connection
            if wantsWindow { await evaluate(startsLooking: true) }
        case .session(.telemetry(let frame)):
            state.connection = frame.connection
            if wantsWindow { await evaluate(startsLooking: false) }
        case .session(.streamLost), .session(.terminated):
            state.connection = nil
        case .session:
            break
        }
    }

    private var needsPriming: Bool { policy == .ageKeyed && !state.primed }

    /// Whether a live frame should make the window stand: to prime it, for an open node, or for someone who asked
    /// while no stream ran.
    private var wantsWindow: Bool { needsPriming || state.lookers > 0 || state.waitingForStream }

    /// Loads the window unless the one held stands; `startsLooking` is false on the stream's beat.
    private func evaluate(startsLooking: Bool) async {
        let nowMs = wallClock.nowMs
        let name = configuration.name(atMs: nowMs)
        if stands(name) {
            if policy == .ageKeyed { state.primed = true }
            return
        }
        if let failure = state.failure {
            // After a failed load only someone looking asks again: on the beat, only an open node whose name turned.
            if !startsLooking, state.lookers == 0 { return }
            if !failure.allows(name, startsLooking: startsLooking, nowMs: nowMs) { return }
        }
        guard state.connection != nil else {
            state.waitingForStream = true
            return
        }
        state.waitingForStream = false
        await load(name, nowMs: nowMs)
    }

    private func stands(_ name: AskName) -> Bool {
        guard state.held.askedUnder == name else { return false }
        switch policy {
        case .ageKeyed: return true
        case .everyReturn: return state.connection != nil && state.answeredOnConnection == state.connection
        }
    }

    /// Sends the load's reads one after the other; records the name only when every one was answered.
    private func load(_ name: AskName, nowMs: Int64) async {
        let askedOn = state.connection
        for read in PlannedRead.reads(for: state.held, nowMs: nowMs, configuration: configuration) {
            state.phase = .reading(read, landed: [])
            let history: HistoryAnswer
            do {
                history = try await session.read(
                    .history(read.query),
                    order: .rest,
                    onChunk: { [inbox] in inbox.land($0) }
                )
            } catch {
                return settleFailure(name, error)
            }
            settle(read, history)
        }
        state.held.askedUnder = name
        state.held.askedAtMs = nowMs
        state.answeredOnConnection = askedOn ?? state.connection
        state.failure = nil
        if policy == .ageKeyed { state.primed = true }
        await persist()
    }

    /// Takes every tile of the answer (those not taken as they landed), then the gaps it names for its range.
    private func settle(_ read: PlannedRead, _ answer: HistoryAnswer) {
        for chunk in inbox.take() { land(chunk) }
        if case .reading(_, let landed) = state.phase {
            for chunk in answer.chunks where !landed.contains(chunk.tileId) { land(chunk) }
        }
        state.held.replaceGaps(fromMs: read.query.fromMs, toMs: read.query.toMs, with: answer.end.gaps)
        state.phase = .idle
        inbox.arm()
    }

    /// Nothing is recorded as answered; tiles that landed and checked out stay, as do the ones drawn before.
    private func settleFailure(_ name: AskName, _ error: SessionError) {
        for chunk in inbox.take() { land(chunk) }
        state.phase = .idle
        inbox.arm()
        if var failure = state.failure {
            failure.record(name: name, error: error, atMs: wallClock.nowMs)
            state.failure = failure
        } else {
            state.failure = AskFailure(name: name, error: error, atMs: wallClock.nowMs)
        }
        events.publish(.failed(name: name, error: error))
    }

    /// Checks a landed tile against the read on the wire and keeps it, or drops it with a typed event.
    private func land(_ chunk: HistChunk) {
        guard case .reading(let read, var landed) = state.phase else { return }
        landed.insert(chunk.tileId)
        state.phase = .reading(read, landed: landed)
        do {
            state.held.keep(try HeldTile(landing: chunk, planned: read.tiles, series: configuration.series))
        } catch {
            events.publish(.tileRefused(error))
        }
    }

    /// The end of a display frame: takes what landed in it and publishes the window once.
    private func gather() {
        for chunk in inbox.gather() { land(chunk) }
        publish()
    }

    /// Publishes the window as it reads now, when it differs from the one published last.
    private func publish() {
        let nowMs = wallClock.nowMs
        let built = HistoryWindow.build(
            from: state.held,
            series: configuration.series,
            nowMs: nowMs,
            spanMs: configuration.spanMs,
            stepMs: windowStepMs(nowMs: nowMs)
        )
        guard built != window else { return }
        window = built
        events.publish(.changed(built))
    }

    /// The step of the box's plan for the window ending at `nowMs`, planned again only when the tiles it spans move.
    private func windowStepMs(nowMs: Int64) -> Int64 {
        let first = HistoryGeometry.tileStart(configuration.resolution, atMs: nowMs - configuration.spanMs)
        let last = HistoryGeometry.tileStart(configuration.resolution, atMs: nowMs - 1)
        if let step = state.step, step.first == first, step.last == last { return step.stepMs }
        let stepMs = configuration.windowPlan(nowMs: nowMs).stepMs
        state.step = (first, last, stepMs)
        return stepMs
    }
}
