import FTWBoxProtocol
public import FTWBus
public import FTWCache
public import FTWClockSeam
public import FTWHistory
public import FTWPrices
public import FTWSealInterface
public import FTWSession
public import FTWSessionInterface
public import FTWSite
import FTWSocketLoop
public import FTWTrace

/// One process lifetime of the client for one home, composed exactly as the phone composes it.
///
/// This is the composition root: it builds every module with the clocks and the carrier it is given and drives
/// them with the phone's events (scene phases, views appearing and going, pulls to refresh). It holds no logic of
/// its own beyond wiring: every rule lives in a module. A kill is the end of ``run()`` without the background's
/// writes; a relaunch is a new client on the same sealed folder.
///
/// The scoped lifetime, ``run(paired:store:policy:log:shutdownSignals:isolation:_:)``, is the way in: the client
/// is launched, runs while the body does, and is closed (sealed, the session closed with 1000) however the body
/// ends. A test or a simulation builds it with its clocks and dialer
/// (``init(paired:store:dialer:clock:wallClock:random:policy:log:executor:)``) and runs the same scope with
/// ``run(shutdownSignals:isolation:_:)``:
///
/// ```swift
/// let client = HeadlessClient(
///     paired: site,
///     store: store,
///     dialer: dialer,
///     clock: clock,
///     wallClock: wallClock,
///     random: SystemRandomSource(),
///     policy: .ageKeyed,
///     log: DiscardingLogSink()
/// )
/// try await client.run { client in
///     print("drawn before connecting:", client.drawnAtLaunch?.description ?? "nothing")
///     try await client.setPhase(.inactive)  // dial beside the app switch
///     try await client.setPhase(.active)
///     client.show(.now)
///     client.show(.battery)
/// }  // sealed, and the session closed with 1000, however the body ended
/// ```
public final class HeadlessClient: Sendable {
    /// The session to the box.
    public let session: LiveSession
    /// The session's bus.
    public let sessionEvents: EventBus<SessionEvent>
    /// The live trace of every node.
    public let trace: LiveTrace
    /// The 48-hour history.
    public let history: HistoryModel
    /// Today's and tomorrow's prices.
    public let prices: PriceWindowModel
    /// The plan.
    public let plan: PlanModel
    /// The chargers.
    public let chargers: ChargersModel
    /// The planner's preferences.
    public let prefs: PrefsModel
    /// The box's status.
    public let status: StatusModel
    /// The home's identity from hello.
    public let home: HomeModel
    /// The last snapshot of the Now screen.
    public let snapshot: SnapshotModel
    /// Where the pairing record lives.
    public let store: any SealedStore
    /// The pairing record this client started from.
    public let paired: PairedSite
    /// Seals the pairing record once the box has accepted us.
    public let pairing: PairingKeeper
    /// The client's wall clock: every age and every `…Ms` instant its values carry is on it.
    public let wallClock: any WallClock
    /// What the launch drew, whether the client is closed, and who waits for that.
    let lifetime = ClientLifetime()
    /// Where the services run: the event loop the client's sockets live on, so a live frame goes from the socket's
    /// read through the session and the bus to the last model on that loop's thread, with no hand-off; nil to run
    /// where ``run()`` is called (a `Simulation`'s executor, which keeps a simulated world deterministic).
    public let executor: (any TaskExecutor)?

    /// Builds every module for `paired`; nothing runs and nothing is read until ``launch()`` and ``run()``.
    ///
    /// - Parameters:
    ///   - paired: The site, as pairing left it.
    ///   - store: The phone's sealed files.
    ///   - dialer: Opens carriers: a ``/FTWSession/RelayDialer`` to the relay, or a simulated box's in-process dialer.
    ///   - clock: Deadlines, backoffs and the display-frame wait.
    ///   - wallClock: Arrival times, ages and every `…Ms` instant the client's values carry.
    ///   - random: Backoff jitter and command ids.
    ///   - policy: The rule for asking again (`.ageKeyed`, this client's; `.everyReturn`, the old app's).
    ///   - log: Where the session's lines go: category `asks` (every request frame sent) and `session`.
    ///   - executor: Where the services run: the event loop of `dialer`'s sockets (``/FTWSession/RelayDialer/loop``),
    ///     or nil to run where ``run()`` is called.
    public convenience init(
        paired: PairedSite,
        store: any SealedStore,
        dialer: any CarrierDialer,
        clock: any Clock<Duration>,
        wallClock: any WallClock,
        random: any RandomSource,
        policy: AskPolicy,
        log: any LogSink,
        executor: (any TaskExecutor)? = nil
    ) {
        // The actors every live frame reaches share the loop's serial executor, when the executor is a loop: a frame
        // then resumes each of them as one job there, and the session's calls into them run inline. Our own loop is
        // recognised by its class: the cast to the protocol scans every conformance of the program (0.24 M
        // instructions of a launch), so it is left for another executor.
        self.init(
            paired: paired,
            store: store,
            dialer: dialer,
            clock: clock,
            deadlineSleep: .unasked,
            wallClock: wallClock,
            random: random,
            policy: policy,
            log: log,
            executor: executor,
            sharing: (executor as? EventLoop) ?? (executor as? any SerialExecutor)
        )
    }

    /// Builds every module, told what the public initialiser would have to ask its arguments: how the deadlines sleep
    /// on `clock`, and the serial executor the actors share (`executor` itself, when it is one). A composition that
    /// made both, as ``onWallClock(paired:store:policy:log:)`` does, knows, and the first dial pays no scan of the
    /// program's conformances for either.
    init(
        paired: PairedSite,
        store: any SealedStore,
        dialer: any CarrierDialer,
        clock: any Clock<Duration>,
        deadlineSleep: DeadlineSleep,
        wallClock: any WallClock,
        random: any RandomSource,
        policy: AskPolicy,
        log: any LogSink,
        executor: (any TaskExecutor)?,
        sharing shared: (any SerialExecutor)?
    ) {
        self.executor = executor
        let site = paired.site
        let events = EventBus<SessionEvent>()
        let session = LiveSession(
            dialer: dialer,
            identity: paired.sessionIdentity,
            configuration: SessionConfiguration(build: "ftw-headless"),
            clock: clock,
            deadlineSleep: deadlineSleep,
            wallClock: wallClock,
            random: random,
            log: log,
            events: events,
            executor: shared
        )
        let home = HomeModel(site: site, store: store, sessionEvents: events)
        self.session = session
        self.sessionEvents = events
        self.store = store
        self.paired = paired
        self.home = home
        self.wallClock = wallClock
        trace = LiveTrace(
            site: site,
            store: store,
            sessionEvents: events,
            clock: clock,
            wallClock: wallClock,
            executor: shared
        )
        history = HistoryModel(
            site: site,
            store: store,
            session: session,
            sessionEvents: events,
            clock: clock,
            wallClock: wallClock,
            policy: policy
        )
        prices = PriceWindowModel(
            site: site,
            session: session,
            store: store,
            wallClock: wallClock,
            timeZone: { home.timeZone },
            policy: policy
        )
        plan = PlanModel(site: site, session: session, store: store, wallClock: wallClock, policy: policy)
        chargers = ChargersModel(site: site, session: session, store: store, wallClock: wallClock, policy: policy)
        prefs = PrefsModel(site: site, session: session, store: store, wallClock: wallClock, policy: policy)
        status = StatusModel(site: site, session: session, store: store, wallClock: wallClock, policy: policy)
        snapshot = SnapshotModel(
            site: site,
            store: store,
            sessionEvents: events,
            wallClock: wallClock,
            executor: shared
        )
        pairing = PairingKeeper(paired: paired, store: store, sessionEvents: events)
    }

    /// Every long-running part: the one list a launch restores, the run runs and the background persists, in this
    /// order (the home before the price window, which is named in its time zone).
    public var services: [any ClientService] {
        [session, home, snapshot, trace, history, pairing, chargers, prefs, plan, prices, status]
    }

    /// Reads every sealed file, so the home draws before anything connects, and says what it drew.
    public func launch() async -> DrawnFromFiles {
        for service in services { await service.restore() }
        let drawn = await DrawnFromFiles.read(from: self)
        lifetime.drawn = drawn
        return drawn
    }

    /// Runs every service, on ``executor``, until ``close()`` has closed the client, or until the task is
    /// cancelled (a kill, or the end of a scenario: nothing more is written).
    ///
    /// - Throws: ``HeadlessClientError/closed`` when the client's close has begun;
    ///   ``/FTWBus/ServiceError/alreadyRunning(_:)`` when the client ran before.
    public func run() async throws {
        guard lifetime.beginRun() else { throw HeadlessClientError.closed }
        defer { lifetime.runEnded() }
        try await withTaskExecutorPreference(executor) {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for service in services {
                    group.addTask {
                        try await service.run()
                        return false
                    }
                }
                group.addTask { [lifetime] in
                    await lifetime.waitUntilClosed()
                    return true
                }
                // A service may end early (a pairing keeper with nothing to wait for); only the close ends the rest.
                while let closed = try await group.next() {
                    if closed { group.cancelAll() }
                }
            }
        }
    }

    /// Tells the client the network changed: the platform's path monitor calls it (`NWPathMonitor` on Apple
    /// platforms, a netlink watch on Linux). A dial or a backoff in progress is dropped and the client dials at once
    /// on the new path; a live stream is checked (a message within the watchdog's 2.5 s) rather than torn down
    /// (``/FTWSession/LiveSession/networkChanged()``).
    public func networkChanged() async {
        await session.networkChanged()
    }

    /// Follows the phone's scene phase; inactive and background both write the cache, since the app may be closed
    /// from the switcher.
    ///
    /// - Throws: ``HeadlessClientError/closed`` once the client's close has begun: a closed client dials nothing.
    public func setPhase(_ phase: ScenePhase) async throws(HeadlessClientError) {
        guard !lifetime.isClosing else { throw .closed }
        await follow(phase)
    }

    /// Hands `phase` to the session and, out of the front, has every service write what must survive.
    func follow(_ phase: ScenePhase) async {
        await session.setPhase(phase)
        guard phase != .active else { return }
        for service in services { await service.persist() }
    }
}
