import FTWBoxProtocol
public import FTWBus
public import FTWClockSeam
public import FTWSealInterface
public import FTWSessionInterface

/// The site's last snapshot: built from the session's live frames (a snap, then deltas and ticks), sealed in
/// `snapshot-<site>` when the app asks (``persist()``, at inactive and background), and read at launch so the Now
/// screen draws before anything connects.
///
/// Restored readings are shown as from the cache with their age, never as live, and are never written back as if
/// fresh: only a snapshot built from this run's stream is sealed.
///
/// ## Concurrency
/// An actor; ``run()`` is its service loop over the session's telemetry, which has one reader: a second ``run()``
/// is refused. ``changes`` tells observers after the readings changed, so a read that follows sees the change.
public actor SnapshotModel: ClientService {
    /// What changed in the readings shown, told on ``changes`` once the model holds it.
    public enum Change: Sendable, Hashable {
        /// The sealed file was read back: readings from the cache.
        case restored
        /// A live frame gave readings or confirmed them: a snap, a delta, or a tick. Each moves the readings' moment
        /// (``ShownSnapshot/asOf(field:)``) to the box's newer uptime, so a screen that shows ages must read them
        /// again; one that only shows values finds them equal and draws nothing (`HeadlessClient`'s observations
        /// hand out a value only when it differs).
        case live
    }

    private enum State {
        /// Nothing to show.
        case empty
        /// Read back from the sealed file, sealed at `savedAtMs`.
        case restored(SiteSnapshot, savedAtMs: Int64)
        /// Built from the stream of `connection`, whose snap arrived at `sinceMs`, its uptime placed by `gap`.
        case live(SiteSnapshot, connection: Int, sinceMs: Int64, gap: ClockGap)
    }

    private let isolation: ActorIsolation
    private let site: SiteID
    private let store: (any SealedStore)?
    private let wallClock: any WallClock
    private let sessionEvents: BusStream<SessionEvent>
    private var state = State.empty
    private var lifecycle = ServiceLifecycle(name: "snapshot")

    /// Tells observers when the snapshot could not be sealed.
    public nonisolated let events = EventBus<KeepEvent>()

    /// Tells observers that the readings shown changed, after the change: read ``shown`` to draw them.
    public nonisolated let changes = EventBus<Change>()

    /// Makes the model.
    ///
    /// - Parameters:
    ///   - site: The home whose `snapshot-<site>` file holds the readings.
    ///   - store: Where they are sealed; nil keeps them in memory only.
    ///   - sessionEvents: The session's bus: its live frames.
    ///   - wallClock: Now, for when the snapshot is sealed.
    public init(
        site: SiteID,
        store: (any SealedStore)?,
        sessionEvents: EventBus<SessionEvent>,
        wallClock: any WallClock
    ) {
        self.init(site: site, store: store, sessionEvents: sessionEvents, wallClock: wallClock, executor: nil)
    }

    /// Makes the model on the serial executor the client's actors share, so a live frame the session publishes
    /// resumes it as one job there.
    ///
    /// - Parameters:
    ///   - site: The home whose `snapshot-<site>` file holds the readings.
    ///   - store: Where they are sealed; nil keeps them in memory only.
    ///   - sessionEvents: The session's bus: its live frames.
    ///   - wallClock: Now, for when the snapshot is sealed.
    ///   - executor: The serial executor shared with the session (a live client's event loop); nil for a queue of
    ///     the model's own.
    public init(
        site: SiteID,
        store: (any SealedStore)?,
        sessionEvents: EventBus<SessionEvent>,
        wallClock: any WallClock,
        executor: (any SerialExecutor)?
    ) {
        isolation = ActorIsolation(sharing: executor)
        self.site = site
        self.store = store
        self.wallClock = wallClock
        self.sessionEvents = sessionEvents.subscribe()
    }

    /// The snapshot to draw, with where it came from; nil before any.
    public var shown: ShownSnapshot? {
        switch state {
        case .empty:
            return nil
        case .restored(let snapshot, let savedAtMs):
            return ShownSnapshot(snapshot: snapshot, origin: .cache(savedAtMs: savedAtMs))
        case .live(let snapshot, let connection, let sinceMs, let gap):
            var shown = ShownSnapshot(snapshot: snapshot, origin: .live(connection: connection), liveSinceMs: sinceMs)
            shown.clockGapMs = gap.gapMs
            return shown
        }
    }

    /// Where the model runs: the executor given at its making, or a queue of its own.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { isolation.unownedExecutor }

    /// The model's word in logs and in the error a second ``run()`` throws.
    public nonisolated var serviceName: String { "snapshot" }

    /// Reads the sealed snapshot, once, unless the stream already gave one.
    public func restore() async {
        guard lifecycle.claimRestore() else { return }
        await readSealed()
        lifecycle.restoreEnded()
    }

    private func readSealed() async {
        guard let store, let sealed = await store.readContents(.snapshot(site), as: SealedSnapshot.self) else {
            return
        }
        // The read suspended: a live frame may have arrived meanwhile, and it wins.
        guard case .empty = state else { return }
        state = .restored(sealed.snapshot, savedAtMs: sealed.savedAtMs)
        changes.publish(.restored)
    }

    /// Reads the sealed snapshot back, then applies live frames until the session's bus finishes or the task is
    /// cancelled.
    ///
    /// - Throws: `ServiceError.alreadyRunning(_:)` when the model ran before.
    public func run() async throws(ServiceError) {
        if try lifecycle.claimRun() { await readSealed() }
        defer { lifecycle.runEnded() }
        await sessionEvents.forEach(sharing: isolation.sharedExecutor) { event in
            guard case .telemetry(let frame) = event else { return }
            apply(frame)
        }
    }

    /// Seals the live snapshot with the wall-clock time; does nothing while the snapshot shown is the restored one.
    /// A failed write is told on ``events`` and leaves the previous file in place; the next persist tries again.
    public func persist() async {
        guard case .live(let snapshot, _, _, _) = state, let store else { return }
        do throws(SealError) {
            try await store.writeContents(
                SealedSnapshot(snapshot: snapshot, savedAtMs: wallClock.nowMs),
                to: .snapshot(site)
            )
        } catch {
            events.publish(.notKept(error))
        }
    }

    private func apply(_ frame: TelemetryFrame) {
        switch frame.message {
        case .snap(let snap):
            state = .live(
                SiteSnapshot(snap: snap, arrivalMs: frame.arrivalMs),
                connection: frame.connection,
                sinceMs: frame.arrivalMs,
                gap: ClockGap(
                    connection: frame.connection,
                    uptimeMs: snap.uptimeMs,
                    gapMs: frame.arrivalMs - snap.uptimeMs
                )
            )
            changes.publish(.live)
        case .delta(let delta, _):
            if change(on: frame, { $0.apply(delta, arrivalMs: frame.arrivalMs) }) { changes.publish(.live) }
        case .tick(let tick):
            if change(on: frame, { $0.apply(tick, arrivalMs: frame.arrivalMs) }) { changes.publish(.live) }
        }
    }

    /// Applies `change` to the live snapshot of `frame`'s connection, and places its uptime. A delta or tick without this connection's snap to
    /// apply to is from a connection already gone: the cached readings must not be passed off as live.
    ///
    /// - Returns: Whether the change was applied.
    @discardableResult
    private func change(on frame: TelemetryFrame, _ change: (inout SiteSnapshot) -> Void) -> Bool {
        guard case .live(var snapshot, let live, let sinceMs, var gap) = state, live == frame.connection else {
            return false
        }
        // Let go of the state's copy first, so the readings are changed in place rather than copied every frame;
        // nothing suspends until the state holds them again.
        state = .empty
        change(&snapshot)
        let gapMs = frame.arrivalMs - frame.uptimeMs
        if case .needsNewGap = gap.place(connection: live, uptimeMs: frame.uptimeMs, gapMs: gapMs) {
            // Uptime went back on the connection: the box rebooted, and only this frame's gap places its clock.
            gap = ClockGap(connection: live, uptimeMs: frame.uptimeMs, gapMs: gapMs)
        }
        state = .live(snapshot, connection: live, sinceMs: sinceMs, gap: gap)
        return true
    }
}
