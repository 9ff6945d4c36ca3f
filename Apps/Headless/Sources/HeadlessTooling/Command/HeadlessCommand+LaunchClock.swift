import FTWClient
import Foundation
import SealInterface

extension HeadlessCommand {
    /// `launch-clock`: cold launches timed from process start, with and without sealed files.
    static func launchClock(_ options: inout CommandOptions) async throws -> Int32 {
        let json = options.flag("--json")
        let launches = try options.value("--launches").map { try Self.count($0, of: "--launches") } ?? 10
        let latency = try options.value("--latency").map { try Self.count($0, of: "--latency", from: 0) } ?? 0
        let stay = try options.value("--stay").map { try Self.count($0, of: "--stay", from: 0) } ?? 0
        try options.finish()
        guard let executable = Bundle.main.executableURL else { throw CommandError("cannot find this program's file") }
        let clock = LaunchClock(
            launches: launches,
            latency: .milliseconds(latency),
            executable: executable,
            stay: .seconds(stay)
        )
        let report = try await clock.measure()
        if json { try printJSON(report) } else { print(report.text) }
        return 0
    }

    /// `launch-once`, the launch clock's child: one launch on `--data` for `--site` through the relay it was paired
    /// through, timed from `--origin` (seconds since 1970, when the parent started this process); prints its times as
    /// JSON.
    static func launchOnce(_ options: inout CommandOptions) async throws -> Int32 {
        let main = Date()
        guard let data = try options.value("--data"), let siteText = try options.value("--site"),
            let originText = try options.value("--origin")
        else { throw CommandError("'launch-once' needs --data, --site and --origin") }
        try options.finish()
        guard let site = SiteID(rawValue: siteText) else { throw CommandError("'\(siteText)' is not a site id") }
        guard let origin = Double(originText) else { throw CommandError("'\(originText)' is not a time") }
        let probe = LaunchProbe(dataFolder: DataFolder(url: URL(fileURLWithPath: data)), site: site)
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
