public import FTWBus
public import FTWClockSeam
public import FTWSealInterface
public import FTWSessionInterface

/// The one copy of the last minutes of every node's live readings: one ring per field, recorded from the box's
/// stream or the cloud feed, sealed to `ring-<site>` so a node's curve opens drawn after a kill.
///
/// - Only fields whose own reading is live are recorded (a device that stopped answering records nothing).
/// - Box points are stamped by box uptime on the connection's anchor (the smallest clock gap seen on it), cloud
///   points with the cloud's send time.
/// - Each source has its own gap rule; a longer gap starts a new run. Runs are recorded with the points, survive
///   the file, and are what a chart draws.
///
/// ## Concurrency
/// An actor. ``run()`` is its service: it reads the ring file back (``restore()``), then consumes the session's
/// bus, subscribed at init so no frame is missed, and writes the ring file every ``TraceConfiguration/persistInterval``
/// on the injected clock while live points come in. Writes are serialised: a later ``persist()`` never lands
/// before an earlier one.
public actor LiveTrace: ClientService {
    /// Tells observers to redraw, and what became of the ring file.
    public nonisolated let events: EventBus<TraceEvent>

    private let isolation: ActorIsolation
    let site: SiteID
    let store: (any SealedStore)?
    let clock: any Clock<Duration>
    let wallClock: any WallClock
    let configuration: TraceConfiguration
    /// ``TraceConfiguration/boxGapRule`` in milliseconds, worked out once: every box frame needs it, and `Duration`
    /// arithmetic is 128-bit (about 1 k instructions a frame).
    let boxGapRuleMs: Int64
    /// ``TraceConfiguration/cloudGapRule`` in milliseconds, worked out once, for the cloud's beats.
    let cloudGapRuleMs: Int64
    private let sessionEvents: BusStream<SessionEvent>

    /// Every field's ring, by field id.
    // Unchecked exclusivity on what every beat touches (here and below): the actor alone touches it, and each
    // access's dynamic check cost about 110 instructions.
    @exclusivity(unchecked) var rings: [Int: TraceRing] = [:] {
        didSet { ringFileFields = nil }
    }
    /// `rings` as the ring file lists them, by ascending field id: worked out at a write after `rings` changed, and
    /// kept for the next (sorting the table cost more than encoding a ring's new points).
    var ringFileFields: [RingFile.Field]?
    /// How many times a ring in `rings` was replaced by another (a restore), so a box picture that remembers its
    /// fields' rings looks them up again.
    var ringsReplaced = 0
    /// The last run id handed out.
    var runs: UInt32 = 0
    /// The last anchor id handed out.
    var anchors: UInt32 = 0
    /// The box stream while one runs on a connection; nil while it is down.
    @exclusivity(unchecked) var box: BoxStream?
    /// Where reading the ring file back stands.
    var restoration: Restoration = .pending
    /// What the ring file gave, and when live points came after it: the time the app missed.
    @exclusivity(unchecked) var restored: RestoredSpan?
    /// Live points were recorded since the ring file was last written.
    @exclusivity(unchecked) var unsaved = false
    /// The session said `idle` (the app is in the background) and has said nothing since.
    var isIdle = false
    /// Wakes the ring file's beat when the session leaves `idle`.
    let wakes: AsyncStream<Void>
    let wakeFeed: AsyncStream<Void>.Continuation
    /// The cloud feed's beats under its gap rule; nil before its first message.
    var cloudBeats: BeatWatch?
    /// Wakes the cloud's watch when the feed goes live, so a stale or silent feed costs no timer.
    let cloudWakes: AsyncStream<Void>
    let cloudWakeFeed: AsyncStream<Void>.Continuation
    /// The ring file's writer: one write at a time, in order.
    var writer = RingWriter()
    /// The run, once: the session's events have one reader. The sealed read keeps its own ``restoration``, since
    /// callers that ask while it reads wait for it.
    private var lifecycle = ServiceLifecycle(name: "trace")

    /// Makes a trace; it listens to `sessionEvents` from now on, though it records only once ``run()`` runs.
    ///
    /// - Parameters:
    ///   - site: The home, whose `ring-<site>` file the trace keeps.
    ///   - store: Where the ring file is sealed; nil keeps the trace in memory only.
    ///   - sessionEvents: The session's bus: live frames, and when the stream comes and goes.
    ///   - clock: Paces the ring file's writes.
    ///   - wallClock: Now, for ``missed()``.
    ///   - configuration: The window, the sources' cadences, the capacity.
    public init(
        site: SiteID,
        store: (any SealedStore)?,
        sessionEvents: EventBus<SessionEvent>,
        clock: any Clock<Duration>,
        wallClock: any WallClock,
        configuration: TraceConfiguration = TraceConfiguration()
    ) {
        self.init(
            site: site,
            store: store,
            sessionEvents: sessionEvents,
            clock: clock,
            wallClock: wallClock,
            configuration: configuration,
            executor: nil
        )
    }

    /// Makes the trace on the serial executor the client's actors share, so a live frame the session publishes
    /// resumes it as one job there.
    ///
    /// - Parameters:
    ///   - site: The home, whose `ring-<site>` file the trace keeps.
    ///   - store: Where the ring file is sealed; nil keeps the trace in memory only.
    ///   - sessionEvents: The session's bus: live frames, and when the stream comes and goes.
    ///   - clock: Paces the ring file's writes.
    ///   - wallClock: Now, for ``missed()``.
    ///   - configuration: The window, the sources' cadences, the capacity.
    ///   - executor: The serial executor shared with the session (a live client's event loop); nil for a queue of
    ///     the trace's own.
    public init(
        site: SiteID,
        store: (any SealedStore)?,
        sessionEvents: EventBus<SessionEvent>,
        clock: any Clock<Duration>,
        wallClock: any WallClock,
        configuration: TraceConfiguration = TraceConfiguration(),
        executor: (any SerialExecutor)?
    ) {
        isolation = ActorIsolation(sharing: executor)
        self.site = site
        self.store = store
        self.clock = clock
        self.wallClock = wallClock
        self.configuration = configuration
        boxGapRuleMs = configuration.boxGapRule.wholeMilliseconds
        cloudGapRuleMs = configuration.cloudGapRule.wholeMilliseconds
        self.events = EventBus()
        self.sessionEvents = sessionEvents.subscribe()
        (wakes, wakeFeed) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        (cloudWakes, cloudWakeFeed) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Reads the ring file back (if that was not done yet), then records every live frame of the session and writes
    /// the ring file while live points come in, until the task is cancelled.
    ///
    /// - Throws: `ServiceError.alreadyRunning(_:)` when the trace ran before.
    public func run() async throws(ServiceError) {
        _ = try lifecycle.claimRun()
        defer { lifecycle.runEnded() }
        await restore()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.writeWhileLive() }
            group.addTask { await self.watchCloud() }
            await sessionEvents.forEach(sharing: isolation.sharedExecutor) { handle($0) }
            group.cancelAll()
        }
    }

    /// Where the trace runs: the executor given at its making, or a queue of its own.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { isolation.unownedExecutor }

    /// The trace's word in logs and in the error a second ``run()`` throws.
    public nonisolated var serviceName: String { "trace" }

    /// The field ids the trace holds a ring for, ascending.
    public var fields: [Int] { rings.keys.sorted() }

    /// The points of `field`, oldest first; empty for a field the trace does not know.
    public func points(field: Int) -> [TracePoint] {
        guard let ring = rings[field] else { return [] }
        return (0..<ring.count).map { ring[$0].point }
    }

    /// What a chart draws for `field`, oldest first: each point with the run recorded with it.
    public func samples(field: Int) -> [ChartSample] {
        guard let ring = rings[field] else { return [] }
        return (0..<ring.count).map { index in
            let slot = ring[index]
            var sample = ChartSample(
                timeMs: slot.timeMs,
                value: Double(slot.value),
                seen: slot.flags.contains(.seen),
                run: Int(slot.run),
                startsRun: slot.flags.contains(.startsRun)
            )
            sample.fromCloud = slot.source == .cloud
            return sample
        }
    }

    /// The time the app missed: from the newest point read back from the ring file to the first live point after
    /// it, or to `nowMs` while none has come; nil when nothing was read back.
    public func missed(nowMs: Int64) -> Duration? {
        guard let restored else { return nil }
        let end = restored.firstLiveMs ?? nowMs
        return .milliseconds(max(0, end - restored.newestMs))
    }

    /// ``missed(nowMs:)`` now, on the wall clock.
    public func missed() -> Duration? {
        missed(nowMs: wallClock.nowMs)
    }

    /// The memory the rings have reserved: fixed per field, whatever runs through them.
    public var footprint: TraceFootprint {
        let slots = rings.values.reduce(0) { $0 + $1.capacity }
        return TraceFootprint(rings: rings.count, slots: slots, bytes: slots * MemoryLayout<TraceSlot>.stride)
    }

    /// The ring of `fieldID`, made on its first point unless the trace already keeps as many rings as it may.
    func ring(for fieldID: Int) -> TraceRing? {
        if let ring = rings[fieldID] { return ring }
        guard rings.count < configuration.maxFields else { return nil }
        let ring = TraceRing(capacity: configuration.ringCapacity, windowMs: configuration.window.wholeMilliseconds)
        rings[fieldID] = ring
        return ring
    }

    /// Notes that live points were recorded at `stampMs` (on `anchor`, for a box beat), and tells observers.
    func noteLive(atMs stampMs: Int64, anchor: UInt32?) {
        unsaved = true
        if restored != nil, restored?.firstLiveMs == nil {
            restored?.firstLiveMs = stampMs
            restored?.firstLiveAnchor = anchor
        }
        events.publish(.changed)
    }
}
