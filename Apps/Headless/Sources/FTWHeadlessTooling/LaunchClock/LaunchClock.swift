import Dispatch
import FTWClient
import FTWClockSeam
import FTWDemoBox
import FTWNoise
import FTWSealInterface
import FTWSessionInterface
import FTWSpawning
public import Foundation

/// Times cold launches of the client: each one a new `ftw-headless launch-once` process on a copy of a data
/// folder, against the demo box behind a loopback relay on the wall clock, half of them with the sealed files an
/// earlier stay left and half with only the pairing record.
///
/// The point it makes with numbers: the second open draws from the files long before the box answers, and reading
/// the files and building every model is a small part of the wait. With a ``baseline`` it also runs that C program
/// on the same files, alternating with the launches, so the first content is set against the least any program
/// needs to show those files.
public struct LaunchClock: Sendable {
    /// Launches of each kind.
    public var launches: Int
    /// The relay's added latency each way.
    public var latency: Duration
    /// The `ftw-headless` program the launches run.
    public var executable: URL
    /// The least time the stay that fills the folder lasts: longer leaves more of the live trace in its ring, as a
    /// person who watched the battery for a while would.
    public var stay: Duration
    /// `ftw-launch-baseline`, run on the folder with sealed files after each launch with them; nil for none.
    public var baseline: URL?
    /// Whether to count, with valgrind's callgrind, the instructions of one launch with sealed files and of one
    /// baseline run on the same files: the stable measure of the two, slow (tens of seconds each).
    public var countsInstructions: Bool

    /// Makes a clock.
    public init(
        launches: Int,
        latency: Duration,
        executable: URL,
        stay: Duration = .zero,
        baseline: URL? = nil,
        countsInstructions: Bool = false
    ) {
        self.launches = launches
        self.latency = latency
        self.executable = executable
        self.stay = stay
        self.baseline = baseline
        self.countsInstructions = countsInstructions
    }

    /// Starts the box and its relay, pairs and fills a folder with one stay, then times the launches, alternating
    /// with and without files so drift in the machine touches both alike.
    ///
    /// - Throws: `LaunchClockError` when the relay cannot listen, the first stay does not go live, or a launch fails.
    public func measure() async throws -> LaunchClockReport {
        let box = SimulatedBox(
            configuration: Self.boxConfiguration,
            clock: ContinuousClock(),
            wallClock: SystemWallClock()
        )
        let relay = try DemoRelayServer(box: box, port: 0, clock: ContinuousClock())
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ftw-launch-clock-\(UUID().uuidString)"
        )
        defer { try? FileManager.default.removeItem(at: root) }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await box.run() }
            group.addTask { try await relay.run() }
            defer { group.cancelAll() }
            await box.setRelayLatency(latency)
            let report = try await measure(box: box, port: relay.port, root: root)
            await relay.close()
            return report
        }
    }

    /// The demo box's defaults with no join allowance, as `ftw-bench` runs it: every launch joins the relay, and the
    /// pairing, the first stay and the box's own uplink join it too, so more than about 14 launches of each kind
    /// would spend the household's 30 joins a minute and time the relay's `slow down`, not the client.
    static var boxConfiguration: DemoBoxConfiguration {
        var configuration = DemoBoxConfiguration()
        configuration.joinAllowance = nil
        // The relay turns its hour at once, on no beat, so a launch in the first minutes of an hour is not timed
        // waiting for the box to be moved to the new room.
        configuration.relaySchedule =
            RelaySchedule(epochMs: RelaySchedule.production.epochMs, rotationSpreadMs: 0) ?? .production
        configuration.relayBeat = .none
        return configuration
    }

    private func measure(box: SimulatedBox, port: Int, root: URL) async throws -> LaunchClockReport {
        let filled = DataFolder(url: root.appendingPathComponent("filled"))
        let site = try await pair(
            box: box,
            relay: RelayAddress(secure: false, host: "127.0.0.1", port: port),
            folder: filled
        )
        try await fillByOneStay(LaunchProbe(dataFolder: filled, site: site, patience: stay + .seconds(10)))
        let bare = DataFolder(url: root.appendingPathComponent("bare"))
        try Self.copyKeepingOnlyPairing(filled, to: bare)
        var withFiles: [LaunchTimes] = []
        var withoutFiles: [LaunchTimes] = []
        var baselineRuns: [LaunchBaselineTimes] = []
        var written = try await offlineLaunch(from: filled, site: site, scratch: root).map { "offline launch: \($0)" }
        for number in 0..<launches {
            let (times, changes) = try await coldLaunch(from: filled, site: site, scratch: root, number)
            withFiles.append(times)
            written += changes.map { "launch \(number + 1) with files: \($0)" }
            withoutFiles.append(try await coldLaunch(from: bare, site: site, scratch: root, number).times)
            if let baseline {
                baselineRuns.append(try await baselineRun(baseline, on: filled, scratch: root, number))
            }
        }
        return LaunchClockReport(
            latencyMs: Int(latency.wholeMilliseconds),
            withFiles: LaunchSeries(withFiles),
            withoutFiles: LaunchSeries(withoutFiles),
            baseline: baseline == nil ? nil : LaunchBaseline(baselineRuns),
            instructions: countsInstructions
                ? try await countInstructions(from: filled, site: site, scratch: root) : nil,
            writtenAtLaunch: written
        )
    }

    /// Callgrind's count, from `exec` to the first content, of one launch with sealed files and of one baseline run,
    /// each on its own copy of `template`.
    private func countInstructions(
        from template: DataFolder,
        site: SiteID,
        scratch: URL
    ) async throws -> LaunchInstructions {
        guard let baseline else { throw LaunchClockError("counting instructions needs the C baseline (--baseline)") }
        let client = try await Self.callgrind(executable, until: "*atFirstContent*", on: template, scratch: scratch) {
            ["launch-once", "--data", $0, "--site", site.rawValue, "--until-content"]
        }
        let floor = try await Self.callgrind(baseline, until: "ftw_at_first_content", on: template, scratch: scratch) {
            [$0, "--origin", "0"]
        }
        return LaunchInstructions(client: client, baseline: floor)
    }

    /// The instructions `program` executed, every thread, from `exec` until it entered the function `marker` names
    /// (callgrind dumps its count there), run under callgrind on a copy of `template` with the arguments `arguments`
    /// makes from the copy's path.
    private static func callgrind(
        _ program: URL,
        until marker: String,
        on template: DataFolder,
        scratch: URL,
        _ arguments: (String) -> [String]
    ) async throws -> Int {
        let valgrind = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin")
            .split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent("valgrind") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        guard let valgrind else { throw LaunchClockError("counting instructions needs valgrind on PATH") }
        let name = program.lastPathComponent
        let folder = scratch.appendingPathComponent("counted-\(name)")
        let dumps = scratch.appendingPathComponent("callgrind-\(name)")
        try FileManager.default.copyItem(at: template.url, to: folder)
        try FileManager.default.createDirectory(at: dumps, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let options = [
            "--tool=callgrind", "--dump-before=\(marker)", "--callgrind-out-file=\(dumps.path)/out",
            "--log-file=\(dumps.path)/log", program.path,
        ]
        _ = try await runChild(valgrind, options + arguments(folder.path), passingOrigin: false)
        guard let count = firstContentCount(in: dumps) else {
            let log = (try? String(contentsOf: dumps.appendingPathComponent("log"), encoding: .utf8)) ?? ""
            throw LaunchClockError("callgrind counted no first content for \(name) (no dump before \(marker)): \(log)")
        }
        return count
    }

    /// The count of the first dump callgrind wrote in `folder` on entering the marker: the instructions until then.
    private static func firstContentCount(in folder: URL) -> Int? {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasPrefix("out") }
            .sorted {
                (Int($0.split(separator: ".").last ?? "") ?? .max) < (Int($1.split(separator: ".").last ?? "") ?? .max)
            }
        for name in names {
            guard let text = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) else {
                continue
            }
            let lines = text.split(separator: "\n")
            guard lines.contains(where: { $0.hasPrefix("desc: Trigger:") && $0.lowercased().contains("before") }),
                let total = lines.first(where: { $0.hasPrefix("summary:") || $0.hasPrefix("totals:") })
            else { continue }
            return total.split(separator: " ").last.flatMap { Int($0) }
        }
        return nil
    }

    /// What a launch that builds every model and draws the sealed files, with no network, changed in a copy of
    /// `template`: nothing, when it only read.
    private func offlineLaunch(from template: DataFolder, site: SiteID, scratch: URL) async throws -> [String] {
        let folder = scratch.appendingPathComponent("offline")
        try FileManager.default.copyItem(at: template.url, to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try FolderPrint(folder)
        let arguments = ["launch-once", "--data", folder.path, "--site", site.rawValue, "--until-content"]
        _ = try await Self.runChild(executable, arguments, passingOrigin: false)
        return try FolderPrint(folder).changes(since: before)
    }

    /// One run of the baseline on a copy of `template`, as a launch runs on one.
    private func baselineRun(
        _ program: URL,
        on template: DataFolder,
        scratch: URL,
        _ number: Int
    ) async throws -> LaunchBaselineTimes {
        let folder = scratch.appendingPathComponent("baseline-\(number)")
        try FileManager.default.copyItem(at: template.url, to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try await Self.runChild(program, [folder.path], passingOrigin: true)
        guard let line = output.split(separator: "\n").last,
            let times = try? JSONDecoder().decode(LaunchBaselineTimes.self, from: Data(line.utf8))
        else {
            throw LaunchClockError("baseline run \(number) printed no times: \(output)")
        }
        return times
    }

    /// Pairs a new phone folder with the box from the link its QR code shows, as a person would.
    private func pair(box: SimulatedBox, relay: RelayAddress, folder: DataFolder) async throws -> SiteID {
        let link = try EnrolmentURL(parsing: await box.enrolmentURL(lanHint: "\(relay.host):\(relay.port)"))
        let pairing = Pairing(store: folder.unlockedStore(), clock: ContinuousClock(), wallClock: SystemWallClock())
        return try await pairing.pair(link, relay: relay).site
    }

    /// One stay in this process that shows the home screen and the battery for at least ``stay`` and until the
    /// history, the trace and the home screen's models hold something, then goes to the background, which writes
    /// the cache.
    private func fillByOneStay(_ probe: LaunchProbe) async throws {
        let client = try await probe.makeClient()
        _ = await client.launch()
        let until = ContinuousClock.now + stay
        _ = try await probe.inForeground(client) { _ in
            while true {
                let filled = Self.isFilled(await DrawnFromFiles.read(from: client))
                if filled, ContinuousClock.now >= until { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            try await client.setPhase(.inactive)
            try await client.setPhase(.background)
            return true
        }
    }

    private static func isFilled(_ drawn: DrawnFromFiles) -> Bool {
        let shown = ["chargers", "prefs", "plan", "prices", "snapshot", "home"]
        return drawn.historySteps > 0 && drawn.tracePoints > 0 && shown.allSatisfy { drawn.models[$0] == true }
    }

    /// A folder with the phone's key and the pairing record and no other sealed file: a first open after pairing.
    private static func copyKeepingOnlyPairing(_ source: DataFolder, to target: DataFolder) throws {
        try FileManager.default.copyItem(at: source.url, to: target.url)
        let sealed = target.sealedFolder
        for name in try FileManager.default.contentsOfDirectory(atPath: sealed.path)
        where SealedFileName(fileName: name)?.model != PairedSite.fileModel {
            try FileManager.default.removeItem(at: sealed.appendingPathComponent(name))
        }
    }

    /// Copies `template` so the launch cannot change it for the next, then runs one `launch-once` process on it;
    /// returns its times and what it changed in the folder before it was killed.
    private func coldLaunch(
        from template: DataFolder,
        site: SiteID,
        scratch: URL,
        _ number: Int
    ) async throws
        -> (times: LaunchTimes, changes: [String])
    {
        let folder = scratch.appendingPathComponent("launch-\(number)-\(template.url.lastPathComponent)")
        try FileManager.default.copyItem(at: template.url, to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try FolderPrint(folder)
        let arguments = ["launch-once", "--data", folder.path, "--site", site.rawValue]
        let output = try await Self.runChild(executable, arguments, passingOrigin: true)
        guard let line = output.split(separator: "\n").last,
            let times = try? JSONDecoder().decode(LaunchTimes.self, from: Data(line.utf8))
        else {
            throw LaunchClockError("launch \(number) printed no times: \(output)")
        }
        return (times, try FolderPrint(folder).changes(since: before))
    }

    /// Runs the child off the cooperative pool (its waits block), passing the moment it was started in `--origin`
    /// when asked; returns what it printed.
    private static func runChild(
        _ executable: URL,
        _ arguments: [String],
        passingOrigin: Bool
    ) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { @Sendable in
                continuation.resume(
                    with: Result {
                        try runChildBlocking(executable, arguments, passingOrigin)
                    }
                )
            }
        }
    }

    private static func runChildBlocking(
        _ executable: URL,
        _ arguments: [String],
        _ passingOrigin: Bool
    ) throws -> String {
        let process = ChildProcess()
        let output = Pipe()
        let errors = Pipe()
        process.executableURL = executable
        process.standardOutput = output
        process.standardError = errors
        let origin = Date()
        process.arguments = arguments + (passingOrigin ? ["--origin", String(origin.timeIntervalSince1970)] : [])
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaints = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw LaunchClockError(
                "\(executable.lastPathComponent) \(arguments.first ?? "") exited with \(process.terminationStatus): "
                    + String(decoding: complaints, as: UTF8.self)
            )
        }
        return String(decoding: printed, as: UTF8.self)
    }
}
