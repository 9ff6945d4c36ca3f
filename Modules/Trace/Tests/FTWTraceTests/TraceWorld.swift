import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWClockSeamTesting
import FTWSeal
import FTWSealInterface
import FTWSessionInterface
import FTWSessionTestSupport
import FTWTrace
import Foundation

/// A world for the trace's rules: a simulation at 10:01:00 UTC on 2026-12-02, a scripted session whose bus the trace
/// listens to, and a sealed store in a temporary folder. One world per test.
struct TraceWorld: Sendable {
    static let tenOhOne: Int64 = 1_796_205_660_000
    static let site = SiteID(rawValue: "deb7e3fa44c17f16")!
    /// The box booted 100 s before the world starts: uptime 100 000 at 10:01:00.
    static let bootMs = tenOhOne - 100_000

    let simulation = Simulation(originMs: tenOhOne)
    let session: ScriptedSession
    let folder: URL
    let sealEvents = EventBus<SealEvent>()
    let configuration: TraceConfiguration

    init(configuration: TraceConfiguration = TraceConfiguration()) {
        session = ScriptedSession(wallClock: simulation.clock)
        folder = FileManager.default.temporaryDirectory.appending(
            component: "trace-tests-\(UUID().uuidString)",
            directoryHint: .isDirectory
        )
        self.configuration = configuration
    }

    /// A store over the world's folder; each call stands for one launch of the app.
    func store() -> FileSealedStore {
        FileSealedStore(
            folder: folder,
            keys: InMemoryKeyProvider(key: Array(repeating: 7, count: 32)),
            events: sealEvents
        )
    }

    /// A trace of the world's site on a fresh store: one launch.
    func makeTrace(store: (any SealedStore)? = nil) -> LiveTrace {
        LiveTrace(
            site: Self.site,
            store: store ?? self.store(),
            sessionEvents: session.events,
            clock: simulation.clock,
            wallClock: simulation.clock,
            configuration: configuration
        )
    }

    /// Runs `body` inside the simulation, then removes the folder.
    @discardableResult
    func run<Result: Sendable>(_ body: @escaping @Sendable (TraceWorld) async -> Result) async -> Result {
        let result = await simulation.run { _ in await body(self) }
        try? FileManager.default.removeItem(at: folder)
        return result
    }

    /// Makes a world, runs one trace's service in it while `body` drives the world, and hands the trace back for
    /// checks.
    static func recording(
        configuration: TraceConfiguration = TraceConfiguration(),
        _ body: @escaping @Sendable (TraceWorld, LiveTrace) async -> Void
    ) async -> LiveTrace {
        await TraceWorld(configuration: configuration).run { world in
            let trace = world.makeTrace()
            await world.running(trace) { await body(world, trace) }
            return trace
        }
    }

    /// The first launch: a trace runs while `body` drives the world, writes its ring file as the app goes to the
    /// background, and is killed.
    @discardableResult
    func firstLaunch(_ body: (LiveTrace) async -> Void) async -> LiveTrace {
        let trace = makeTrace()
        await running(trace) {
            await body(trace)
            await trace.persist()
        }
        return trace
    }

    /// The next launch, after a kill: a new trace on a new store over the same folder, its ring file read back.
    func relaunch() async -> LiveTrace {
        let trace = makeTrace()
        await trace.restore()
        return trace
    }

    /// Runs `trace`'s service while `body` drives the world, then stops it: the app is killed.
    func running(_ trace: LiveTrace, _ body: () async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await trace.run() }
            await simulation.settle()
            await body()
            await simulation.settle()
            group.cancelAll()
        }
    }

    /// Publishes one box frame taken at `uptimeMs` and arriving `delayMs` after it was taken, and lets the trace
    /// take it. The box booted at `bootMs` on the phone's clock.
    func frame(
        _ message: TelemetryFrame.Message,
        uptimeMs: Int64,
        delayMs: Int64 = 50,
        connection: Int = 1,
        bootMs: Int64 = bootMs
    ) async {
        let arrival = bootMs + uptimeMs + delayMs
        session.events.publish(
            .telemetry(TelemetryFrame(connection: connection, arrivalMs: arrival, message: message))
        )
        await simulation.settle()
    }

    /// A tick at `uptimeMs`.
    func tick(uptimeMs: Int64, delayMs: Int64 = 50, connection: Int = 1, bootMs: Int64 = bootMs) async {
        await frame(
            .tick(Tick(seq: 0, uptimeMs: uptimeMs)),
            uptimeMs: uptimeMs,
            delayMs: delayMs,
            connection: connection,
            bootMs: bootMs
        )
    }

    /// The box streams for `seconds` at 1 Hz on the world's clock: a snap first (when `snap`), then a tick each
    /// second, each arriving 50 ms after it was taken.
    func stream(seconds: Int, connection: Int = 1, snap: Bool = true) async {
        for second in 0..<seconds {
            if second > 0 { await simulation.advance(by: .seconds(1)) }
            let uptime = simulation.clock.nowMs - Self.bootMs - 50
            if snap && second == 0 {
                await frame(.snap(Home.snap(uptimeMs: uptime)), uptimeMs: uptime, connection: connection)
            } else {
                await tick(uptimeMs: uptime, connection: connection)
            }
        }
    }

    /// The stream drops (a carrier lost, the app in the background).
    func dropStream() async {
        session.events.publish(.streamLost(reason: "dropped"))
        await simulation.settle()
    }

    /// The ring file's bytes on disk, sealed.
    var ringFileURL: URL { folder.appending(component: SealedFileName.ring(Self.site).fileName) }
}

/// Every event published on `bus` from the moment it was made until ``drain()``.
struct EventLog<Event: Sendable>: Sendable {
    private let bus: EventBus<Event>
    private let stream: BusStream<Event>

    init(_ bus: EventBus<Event>) {
        self.bus = bus
        stream = bus.subscribe()
    }

    /// Ends the bus and returns what it carried.
    func drain() async -> [Event] {
        bus.finish()
        var events: [Event] = []
        for await event in stream { events.append(event) }
        return events
    }
}
