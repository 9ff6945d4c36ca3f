import BoxProtocol
public import Bus
public import Cache
public import ClockSeam
public import History
public import Prices
public import SealInterface
public import Session
public import SessionInterface
public import Site
public import Trace

/// One process lifetime of the client for one home, composed exactly as the phone composes it.
///
/// This is the composition root: it builds every module with the clocks and the carrier it is given and drives
/// them with the phone's events (scene phases, views appearing and going, pulls to refresh). It holds no logic of
/// its own beyond wiring: every rule lives in a module. A kill is the end of ``run()`` without the background's
/// writes; a relaunch is a new client on the same sealed folder.
///
/// ```swift
/// let client = HeadlessClient(paired: site, store: store, dialer: dialer, clock: clock, wallClock: wallClock,
///                             random: SystemRandomSource(), policy: .ageKeyed, log: DiscardingLogSink())
/// let drawn = await client.launch()          // what the sealed files draw before anything connects
/// try await withThrowingTaskGroup(of: Void.self) { group in
///     group.addTask { try await client.run() }
///     await client.setPhase(.inactive)       // dial beside the app switch
///     await client.setPhase(.active)
///     client.show(.now)
///     client.show(.battery)
/// }
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

    /// Builds every module for `paired`; nothing runs and nothing is read until ``launch()`` and ``run()``.
    public init(
        paired: PairedSite,
        store: any SealedStore,
        dialer: any CarrierDialer,
        clock: any Clock<Duration>,
        wallClock: any WallClock,
        random: any RandomSource,
        policy: AskPolicy,
        log: any LogSink
    ) {
        let site = paired.site
        let events = EventBus<SessionEvent>()
        let session = LiveSession(
            dialer: dialer,
            identity: SessionIdentity(
                appStaticPrivateKey: paired.devicePrivateKey,
                boxStaticPublicKey: paired.boxStaticPublicKey,
                payload: paired.pairingCode
            ),
            configuration: SessionConfiguration(build: "ftw-headless"),
            clock: clock,
            wallClock: wallClock,
            random: random,
            log: log,
            events: events
        )
        let home = HomeModel(site: site, store: store, sessionEvents: events)
        self.session = session
        self.sessionEvents = events
        self.store = store
        self.paired = paired
        self.home = home
        trace = LiveTrace(site: site, store: store, sessionEvents: events, clock: clock, wallClock: wallClock)
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
        snapshot = SnapshotModel(site: site, store: store, sessionEvents: events, wallClock: wallClock)
    }

    /// Reads every sealed file, so the home draws before anything connects, and says what it drew.
    public func launch() async -> DrawnFromFiles {
        await home.restore()
        await snapshot.restore()
        await trace.restore()
        await history.restore()
        for model in askingModels { await model.restore() }
        return await DrawnFromFiles.read(from: self)
    }

    /// Runs every module's service until the task is cancelled (a kill, or the end of a scenario).
    ///
    /// - Throws: What the session's service throws.
    public func run() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.session.run() }
            group.addTask { await self.home.run() }
            group.addTask { await self.snapshot.run() }
            group.addTask { await self.trace.run() }
            group.addTask { await self.history.run() }
            group.addTask { await self.keepPairingCurrent() }
            for model in askingModels { group.addTask { await model.run() } }
            try await group.waitForAll()
        }
    }

    /// Follows the phone's scene phase; inactive and background both write the cache, since the app may be closed
    /// from the switcher.
    public func setPhase(_ phase: ScenePhase) async {
        await session.setPhase(phase)
        guard phase != .active else { return }
        await trace.persist()
        await history.persist()
        await snapshot.persist()
    }

    /// The models that ask the box by the data's age.
    var askingModels: [any AskingModel] { [chargers, prefs, plan, prices, status] }

    /// Seals the pairing record once the box has accepted us: from then on the device is known and the single-use
    /// code must never be sent again, even if the process is killed a moment later.
    private func keepPairingCurrent() async {
        guard !paired.pairingCode.isEmpty else { return }
        for await event in sessionEvents.subscribe() {
            guard case .connection(.streaming(let hello)) = event else { continue }
            var record = paired
            record.pairingCode = []
            record.role = hello.role.rawValue
            record.scopes = hello.scopes.map(\.rawValue)
            try? await record.write(to: store)
            return
        }
    }
}
