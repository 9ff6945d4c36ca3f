public import FTWCache
import FTWClockSeam
import FTWClockSeamTesting
import FTWCrypto
import FTWDemoBox
import FTWSeal
import FTWSealInterface
import FTWSession
import FTWSessionInterface
public import Foundation

/// Runs a scenario against the embedded demo box on a simulated clock: a simulated hour passes in a fraction of a
/// second of real time, deterministically, with every module exactly as the app composes it.
///
/// Each `launch` … `kill` is one process lifetime: a new ``HeadlessClient`` on the same sealed folder. The report
/// counts, stay by stay, the request frames the box received and checks them against the client's asks log.
public struct ScenarioRunner: Sendable {
    /// The scenario to run.
    public var scenario: Scenario
    /// Its name, for the report.
    public var name: String
    /// A policy that wins over the scenario's header (the side-by-side tour runs one scenario under both).
    public var policy: AskPolicy?
    /// Where the sealed files live; nil for a fresh temporary folder removed afterwards. The embedded box keeps its
    /// identity, its enrolled phones and its build in its ``boxFolderName`` subfolder, so a second run relaunches
    /// against the same box with what the first sealed.
    public var dataFolder: URL?

    /// The subfolder of ``dataFolder`` where the embedded demo box keeps its state (`demobox.json`).
    public static let boxFolderName = "demobox"
    /// Watches the run for checks beyond the report (the soak's); nil for none.
    var observer: (any ScenarioObserver)?

    /// Makes a runner.
    public init(scenario: Scenario, name: String, policy: AskPolicy? = nil, dataFolder: URL? = nil) {
        self.scenario = scenario
        self.name = name
        self.policy = policy
        self.dataFolder = dataFolder
    }

    /// Runs the scenario and returns its report, with a picture of the battery if the app is still running at
    /// the end.
    ///
    /// - Throws: `ScenarioError` naming the line of a step that cannot run (an `at` in the past, a view before
    ///   any launch); `DemoBoxError` when the box's state in the data folder cannot be read or written;
    ///   `SealError` `.folderInUse` when another client holds the data folder.
    public func run() async throws -> (report: ScenarioReport, picture: SVGChart?) {
        let started = ContinuousClock.now
        let settings = scenario.settings
        let zone = try Self.zone(settings)
        let day = try Self.day(settings)
        let origin = day.instantMs(atTimeOfDay: Self.startTime(scenario.steps) ?? 10 * 3_600_000, in: zone)
        let folder =
            dataFolder
            ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("ftw-headless-\(UUID().uuidString)")
        defer { if dataFolder == nil { try? FileManager.default.removeItem(at: folder) } }
        // Taken before the box's state is read: a second client on the folder is refused with nothing written.
        let lock = try dataFolder.flatMap { folder throws(SealError) in try FolderLock(folder: folder) }
        let boxFolder = dataFolder?.appendingPathComponent(Self.boxFolderName).path
        let kept = try boxFolder.flatMap { folder throws(DemoBoxError) in try DemoBoxState.load(folder: folder) }
        let simulation = Simulation(originMs: origin)
        let outcome = try await simulation.run { simulation in
            var configuration = DemoBoxConfiguration()
            configuration.timeZone = settings.timeZone
            configuration.servesPlannerPrefs = settings.plannerPrefs
            configuration.identity = .generate(rendezvousSecret: Self.rendezvousSecret)
            configuration.relayBeat = Self.relayBeat(settings) { day.instantMs(atTimeOfDay: $0, in: zone) }
            if let kept {
                configuration.identity = kept.identity
                configuration.enrolledDevices = kept.devices
                configuration.build = kept.build ?? configuration.build
            }
            let box = SimulatedBox(configuration: configuration, clock: simulation.clock, wallClock: simulation.clock)
            let world = ScenarioWorld(
                stage: SimulatedStage(simulation: simulation, box: box),
                folder: folder,
                policy: policy ?? settings.policy,
                instantOfTimeOfDay: { day.instantMs(atTimeOfDay: $0, in: zone) },
                observer: observer,
                lock: lock
            )
            let outcome = try await world.play(scenario.lines)
            if let boxFolder {
                try DemoBoxState(identity: box.identity, devices: await box.enrolledDevices, build: await box.build)
                    .save(folder: boxFolder)
            }
            return outcome
        }
        var report = outcome.report
        report.name = name
        report.simulatedMs = simulation.clock.nowMs - origin
        report.realMs = (ContinuousClock.now - started).wholeMilliseconds
        return (report, outcome.picture)
    }

    /// The embedded box's rendezvous secret unless a data folder keeps its identity: the same on every run, so the
    /// relay turns each hour at the same moment (on 2026-12-02 in Stockholm: 10:00:02.6, 11:02:33.9, 14:01:43.4,
    /// 15:04:20.2), and a scenario's or a soak's output replays.
    static let rendezvousSecret = SHA256.hash(Array("ftw-demobox rendezvous home".utf8))

    /// The relay's heartbeat as the header sets it: its period, and its phase from the time of day a beat falls at
    /// (`instantOf` places it on the scenario's day), else drawn from the seed, as a relay process's start sets it.
    static func relayBeat(_ settings: ScenarioSettings, instantOf: (Int64) -> Int64) -> RelayBeat {
        let periodMs = settings.relayBeatMs
        let phaseMs =
            settings.relayBeatAtMs.map(instantOf)
            ?? Int64(SeededRandomSource(seed: settings.seed).next() * Double(periodMs))
        return RelayBeat(periodMs: periodMs, phaseMs: phaseMs) ?? .production
    }

    /// The time of day the scenario starts at: its first `at`, if only box knobs come before it.
    static func startTime(_ steps: [ScenarioStep]) -> Int64? {
        for step in steps {
            switch step {
            case .at(let time): return time
            case .box, .relay: continue
            default: return nil
            }
        }
        return nil
    }

    static func zone(_ settings: ScenarioSettings) throws(ScenarioError) -> TimeZone {
        guard let zone = TimeZone(identifier: settings.timeZone) else {
            throw ScenarioError(line: 1, "unknown time zone '\(settings.timeZone)'")
        }
        return zone
    }

    /// Local midnight of `date` (YYYY-MM-DD) in `zone`, as Unix ms: the first instant of the day, also where the
    /// clocks skip midnight.
    static func midnight(of date: String, in zone: TimeZone) throws(ScenarioError) -> Int64 {
        try day(ScenarioSettings(date: date)).instantMs(atTimeOfDay: 0, in: zone)
    }

    private static func day(_ settings: ScenarioSettings) throws(ScenarioError) -> CalendarDay {
        guard let day = CalendarDay(settings.date) else {
            throw ScenarioError(line: 1, CalendarDay.refusal(of: settings.date))
        }
        return day
    }
}
