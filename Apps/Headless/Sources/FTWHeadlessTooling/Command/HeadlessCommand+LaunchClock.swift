import FTWClient
import FTWSealInterface
import Foundation

extension HeadlessCommand {
    /// `launch-clock`: cold launches timed from process start, with and without sealed files, against the C baseline
    /// (`--baseline`, by default `ftw-launch-baseline` beside this program when it was built).
    static func launchClock(_ options: inout CommandOptions) async throws -> Int32 {
        let json = options.flag("--json")
        let countsInstructions = options.flag("--instructions")
        let baselinePath = try options.value("--baseline")
        let launches = try options.value("--launches").map { try Self.count($0, of: "--launches") } ?? 10
        let latency = try options.value("--latency").map { try Self.count($0, of: "--latency", from: 0) } ?? 0
        let stay = try options.value("--stay").map { try Self.count($0, of: "--stay", from: 0) } ?? 0
        try options.finish()
        guard let executable = Bundle.main.executableURL else { throw CommandError("cannot find this program's file") }
        let beside = executable.deletingLastPathComponent().appendingPathComponent("ftw-launch-baseline")
        var baseline: URL? = baselinePath.map { URL(fileURLWithPath: $0) } ?? beside
        if let program = baseline, !FileManager.default.isExecutableFile(atPath: program.path) {
            let build = "swift build -c release --product ftw-launch-baseline"
            guard baselinePath == nil else { throw CommandError("no baseline program at \(program.path): \(build)") }
            FileHandle.standardError.write(Data("ftw-headless: no \(program.path), so no C baseline: \(build)\n".utf8))
            baseline = nil
        }
        let clock = LaunchClock(
            launches: launches,
            latency: .milliseconds(latency),
            executable: executable,
            stay: .seconds(stay),
            baseline: baseline,
            countsInstructions: countsInstructions
        )
        let report = try await clock.measure()
        if json { try printJSON(report) } else { print(report.text) }
        return 0
    }

    /// `launch-once`, the launch clock's child: one launch on `--data` for `--site` through the relay it was paired
    /// through, timed from `--origin` (seconds since 1970, when the parent started this process); prints its times as
    /// JSON. With `--until-content` (and no `--origin`) it stops at the first content and prints nothing: a launch
    /// with no network, whose folder the launch clock checks it left as it found.
    static func launchOnce(_ options: inout CommandOptions) async throws -> Int32 {
        let main = Date()
        let untilContent = options.flag("--until-content")
        guard let data = try options.folder("--data"), let siteText = try options.value("--site") else {
            throw CommandError("'launch-once' needs --data and --site")
        }
        let originText = try options.value("--origin")
        try options.finish()
        guard let site = SiteID(rawValue: siteText) else { throw CommandError("'\(siteText)' is not a site id") }
        let probe = LaunchProbe(dataFolder: DataFolder(url: data), site: site)
        if untilContent {
            let client = try await probe.makeClient()
            _ = await client.launch()
            _ = ProcessorTime.atFirstContent()
            withExtendedLifetime(client) {}
            return 0
        }
        guard let originText else { throw CommandError("'launch-once' needs --origin (or --until-content)") }
        guard let origin = Double(originText) else { throw CommandError("'\(originText)' is not a time") }
        let times = try await probe.launch(since: Date(timeIntervalSince1970: origin), mainAt: main)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        print(String(decoding: try encoder.encode(times), as: UTF8.self))
        return 0
    }

    /// A whole number of at least `minimum`, or an error naming the option.
    private static func count(_ text: String, of option: String, from minimum: Int = 1) throws(CommandError) -> Int {
        guard let value = Int(text), value >= minimum else {
            throw CommandError("'\(option)' needs a whole number of at least \(minimum), not '\(text)'")
        }
        return value
    }
}
