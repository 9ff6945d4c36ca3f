import FTWBoxProtocol
public import FTWBus
public import FTWCache
public import FTWClockSeam
public import FTWSealInterface
public import FTWSessionInterface

/// The history of a home as the box's tiles: 48 hours of four series at five minutes, primed once, asked again only
/// when the five minutes turn while a node's view is open, sealed so a cold start draws it in frame one.
///
/// The flows (module README): the first live frame after launch asks for the window once with no view open, the
/// tile still filling first when older tiles are missing too; after that an open node view asks again each time the
/// five-minute name turns, checked on the stream's beat; the grid widget joins a load on the wire; a pull to refresh
/// re-asks the window, first in the read order, even while it stands, and a pull while a load of the same five
/// minutes is out joins it and puts the rest of it first instead. When to ask is the shared `AskDecision`, and the
/// loop that asks is the shared `AskLoop`, as for every model; the history keeps the planning, the tiles and the
/// sealing. Only closed tiles
/// are offered as held. A tile leaves the screen only when its replacement lands, so the right edge never pulls
/// back, and tiles landing within one display frame reach observers as one change.
///
/// ## Concurrency
/// An actor. ``run()`` is its service: one loop handles triggers and session events in order and runs every load
/// itself, so a trigger arriving while a load is on the wire is handled once it settled, by its place in the queue
/// (`AskInbox`: the grid widget's want then finds the window standing, it shared the load; a return queued before a
/// failed load is no new look). A child task follows the pulls and joins a load out while the loop waits. Another
/// gathers landed tiles once per display frame. The session hands tiles over synchronously into a locked inbox; the
/// model takes them on the actor.
public actor HistoryModel: ClientService, AskLoopModel {
    package enum Input: Sendable {
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
        /// The build that refused `hist.query` as last sealed (or read back), so an unchanged verdict is not
        /// written again.
        var sealedRefusal: String?
        /// The sealed read and the run, each once: the inputs have one reader.
        var lifecycle = ServiceLifecycle(name: "history")
        /// The bytes last sealed (or read back), so an unchanged window is not written again.
        var sealed: [UInt8]?
        /// The window's step for the tile span it last covered: the plan depends on nothing else, and a cold start
        /// should not plan twice.
        var step: (first: Int64, last: Int64, stepMs: Int64)?
        /// Where the shown tiles came from: this run's answer, the sealed file of an earlier run, or neither yet.
        var basis = AsOf.Basis.unknown
    }

    /// Changes of the window, refused tiles and files, failed loads.
    public nonisolated let events: EventBus<HistoryEvent>

    /// The window as it was last published: what a chart draws now.
    public private(set) var window: HistoryWindow

    /// The box build that refused `hist.query` outright (`E_UNKNOWN_OP`), remembered and sealed (`history-<site>`),
    /// or nil: the window is not asked of that build again, not by a pull, not after a relaunch.
    public var refusedOnBuild: String? { loop.decision.lackingOnBuild }

    private let site: SiteID
    private let store: (any SealedStore)?
    private let session: any BoxSession
    private let clock: any Clock<Duration>
    package let wallClock: any WallClock
    private let configuration: Configuration
    private let sessionEvents: BusStream<SessionEvent>
    package let askInbox = AskInbox<Input>()
    private let inbox = LandingInbox()
    private var state: State
    /// Who looks, whether the window stands, the failure memory, the stream, the load out: the age-keyed rule and
    /// its loop, shared with every model. The history's own: it primes once per launch, on the first live frame (a
    /// frame says the stream runs, and live frames reach the loop while priming, on a new connection, and after the
    /// five minutes turned with a node open); a node view (or the grid widget) that wanted the window while no
    /// stream ran has it planned when the stream comes, under the name that holds then (a load planned during a dial
    /// can go out after its five minutes turned); a refusal of `hist.query` is remembered with the box's build, as
    /// for every read.
    package var loop: AskLoop

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
        self.configuration = configuration
        self.events = EventBus()
        let loop = AskLoop(
            AskDecision.history(policy: policy),
            turns: .every(configuration.nameBucket),
            followsStream: true
        )
        self.loop = loop
        let beat = loop.beat
        self.sessionEvents = sessionEvents.subscribe(where: { [wallClock] in beat.admits($0, nowMs: wallClock.nowMs) })
        state = State()
        window = HistoryWindow.build(
            from: HeldHistory(),
            series: configuration.series,
            nowMs: wallClock.nowMs,
            spanMs: configuration.spanMs,
            stepMs: configuration.resolution.stepMs,
            basis: .unknown
        )
    }

    /// Hands the model a trigger: a node view appearing or going, the grid widget wanting the window. Returns at once.
    public nonisolated func send(_ trigger: HistoryTrigger) {
        askInbox.send(.trigger(trigger), isPull: trigger == .refresh)
    }

    /// The model's word in logs and in the error a second ``run()`` throws.
    public nonisolated var serviceName: String { "history" }

    /// Restores the sealed window (if not done yet), then handles triggers, session events and landing tiles until
    /// ``finish()`` or cancellation.
    ///
    /// - Throws: `ServiceError.alreadyRunning(_:)` when the model ran before.
    public func run() async throws(ServiceError) {
        if try state.lifecycle.claimRun() { await readSealed() }
        defer { state.lifecycle.runEnded() }
        await readRefusal()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [sessionEvents, askInbox] in
                for await event in sessionEvents { askInbox.send(.session(event)) }
            }
            group.addTask { [askInbox] in
                await askInbox.followPulls(again: .trigger(.refresh)) { await self.joining(pullAt: $0) }
            }
            group.addTask { [inbox, clock, configuration] in
                for await _ in inbox.rings {
                    try? await clock.sleep(for: configuration.displayFrame)
                    await self.gather()
                }
            }
            for await entry in askInbox.entries where askInbox.take(entry) {
                await handle(entry)
            }
            inbox.finish()
            group.cancelAll()
        }
        gather()
    }

    /// Ends the service loop once the inputs already sent are handled.
    public nonisolated func finish() {
        askInbox.finish()
    }

    /// Reads the sealed window back, once, and publishes it: cheap enough for frame one of a cold start, before
    /// anything connects. A file that fails to open or to read leaves the model empty.
    public func restore() async {
        guard state.lifecycle.claimRestore() else { return }
        await readSealed()
        state.lifecycle.restoreEnded()
    }

    /// Reads the sealed window; tiles or a name that arrived while the read was suspended are newer and win.
    private func readSealed() async {
        guard let store else { return }
        guard let bytes = await store.read(.tiles(site)), state.held.tiles.isEmpty, state.held.askedUnder == nil
        else { return }
        if let found = bytes.first, found > TilesFile.version {
            // A newer build's tiles: kept on disk for it, never written over; the window starts empty.
            let file = SealedFileName.tiles(site).fileName
            await store.discard(
                .tiles(site),
                holding: bytes,
                because: .newer(file: file, version: found, current: TilesFile.version)
            )
            return
        }
        do {
            state.held = try TilesFile.decode(bytes, series: configuration.series)
            state.sealed = bytes
            state.basis = .sealedFile
            let held = state.held.askedUnder.map { AskDecision.Held(name: $0, askedAtMs: state.held.askedAtMs ?? 0) }
            restoreDecision(held, lackingOnBuild: nil)
        } catch {
            events.publish(.fileRefused(error))
            return
        }
        publish()
    }

    /// Reads back the build that refused `hist.query`, before any input is weighed: only the loop asks, so a
    /// launch's first frame need not wait for it.
    private func readRefusal() async {
        guard let store,
            let sealed = await store.keptContents(
                name: HistoryRefusal.fileModel,
                site: site,
                as: HistoryRefusal.self
            ),
            let lacking = sealed.lackingOnBuild
        else { return }
        state.sealedRefusal = lacking
        restoreDecision(nil, lackingOnBuild: lacking)
    }

    /// Seals the build that refused `hist.query`, or that a box answered it since, when that changed.
    package func sealVerdict() async {
        let lacking = loop.decision.lackingOnBuild
        guard let store, lacking != state.sealedRefusal else { return }
        do throws(SealError) {
            try await store.keepContents(
                HistoryRefusal(lackingOnBuild: lacking),
                name: HistoryRefusal.fileModel,
                site: site
            )
            state.sealedRefusal = lacking
        } catch {
            events.publish(.notKept(error))
        }
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

    private func handle(_ entry: AskInbox<Input>.Entry) async {
        let place = entry.place
        switch entry.input {
        case .trigger(.nodeViewAppeared): await decide(.viewAppeared, at: place)
        case .trigger(.nodeViewGone): await decide(.viewGone, at: place)
        case .trigger(.gridWantsWindow): await decide(.wantsOnce, at: place)
        case .trigger(.refresh): await decide(.refresh, at: place)
        case .session(let event): await decide(event, at: place)
        }
        settleBeat()
    }

    /// The window is named by its five minutes now, whoever asks.
    package func wanted(nowMs: Int64, byPerson: Bool) -> AskName? {
        configuration.name(atMs: nowMs)
    }

    /// When the pull at `place` wants the five minutes the load out is asked under and the loop has not reached that
    /// pull: a person's read of the query on the wire, which the session shares with the load and puts first, and the
    /// rest of the load goes first too; the loop passes over the pull. The tiles land through the load's own reader.
    /// Says whether the pull still needs a load of its own: when the query it shared was already on the wire and
    /// failed.
    private func joining(pullAt place: Int) -> (@Sendable () async -> Bool)? {
        guard case .reading(let read, _) = state.phase,
            joinsAsk(pullAt: place, wanting: configuration.name(atMs: wallClock.nowMs))
        else { return nil }
        return { [session] in
            do throws(SessionError) {
                _ = try await session.read(.history(read.query), order: .person)
                return false
            } catch {
                return error.sharedOnWire
            }
        }
    }

    /// Loads the window under `name`: sends the load's reads one after the other (a person's first in the read
    /// order), and records the name only when every one was answered.
    package func ask(_ name: AskName, byPerson: Bool) async -> AskLoop.Outcome<SessionError> {
        let nowMs = wallClock.nowMs
        for read in PlannedRead.reads(for: state.held, nowMs: nowMs, configuration: configuration) {
            state.phase = .reading(read, landed: [])
            let history: HistoryAnswer
            do {
                history = try await session.read(
                    .history(read.query),
                    order: loop.asking?.byPerson == true ? .person : .rest,
                    onChunk: { [inbox] in inbox.land($0) }
                )
            } catch {
                settleFailure()
                return .failed(error)
            }
            settle(read, history)
        }
        state.held.askedUnder = name
        state.held.askedAtMs = nowMs
        return .answered(askedAtMs: nowMs)
    }

    /// Seals the window and the verdict after a load, or tells the load's failure.
    package func told(_ outcome: AskLoop.Outcome<SessionError>, name: AskName) async {
        switch outcome {
        case .answered:
            await persist()
            await sealVerdict()
        case .failed(let error):
            events.publish(.failed(name: name, error: error))
        }
    }

    /// Never asked: the box pushes no history unasked.
    package func keep(under name: AskName) async {}

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
    private func settleFailure() {
        for chunk in inbox.take() { land(chunk) }
        state.phase = .idle
        inbox.arm()
    }

    /// Checks a landed tile against the read on the wire and keeps it, or drops it with a typed event.
    private func land(_ chunk: HistChunk) {
        guard case .reading(let read, var landed) = state.phase else { return }
        landed.insert(chunk.tileId)
        state.phase = .reading(read, landed: landed)
        do {
            state.held.keep(try HeldTile(landing: chunk, planned: read.tiles, series: configuration.series))
            state.basis = .answered
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
            stepMs: windowStepMs(nowMs: nowMs),
            basis: state.basis
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
