import FTWClient
import Foundation

/// What `ftw-headless launch-clock` measured: cold launches with the sealed files a previous stay left, and without
/// them, against the demo box over a loopback relay.
public struct LaunchClockReport: Sendable, Hashable, Codable {
    /// The relay's added latency each way, in milliseconds.
    public var latencyMs: Int
    /// Launches on a folder holding the sealed files of an earlier stay.
    public var withFiles: LaunchSeries
    /// Launches on a folder holding only the phone's key and the pairing record.
    public var withoutFiles: LaunchSeries

    /// Makes a report.
    public init(latencyMs: Int, withFiles: LaunchSeries, withoutFiles: LaunchSeries) {
        self.latencyMs = latencyMs
        self.withFiles = withFiles
        self.withoutFiles = withoutFiles
    }

    /// The report as a person reads it.
    public var text: String {
        var lines = [
            "launch clock: \(withFiles.launches.count) + \(withoutFiles.launches.count) cold launches, "
                + "loopback relay, \(latencyMs) ms latency each way; milliseconds from process start, median (range)",
            "",
            "".padding(toLength: 20, withPad: " ", startingAt: 0)
                + ["program", "models built", "first content", "live"].map(Self.rightAligned).joined(),
            row("with sealed files", withFiles),
            row("without", withoutFiles),
            "",
        ]
        if let drawn = withFiles.launches.first?.drawn {
            lines.append("with files, drawn before anything connected: \(Self.describe(drawn))")
        }
        if let drawn = withoutFiles.launches.first?.drawn {
            lines.append("without files, drawn before anything connected: \(Self.describe(drawn))")
        }
        lines.append(
            "building every model and reading every file: \(Self.ms(withFiles.buildAndRead.median)) ms median, "
                + "\(Self.percent(withFiles.buildAndReadShare)) of the time to live"
        )
        return lines.joined(separator: "\n")
    }

    private func row(_ title: String, _ series: LaunchSeries) -> String {
        let cells = [series.main, series.built, series.content, series.live].map(Self.cell)
        return title.padding(toLength: 20, withPad: " ", startingAt: 0) + cells.joined()
    }

    private static func cell(_ spread: LaunchSpread) -> String {
        rightAligned("\(ms(spread.median)) (\(ms(spread.min))–\(ms(spread.max)))")
    }

    private static func rightAligned(_ text: String) -> String {
        String(repeating: " ", count: max(1, 18 - text.count)) + text
    }

    private static func describe(_ drawn: DrawnFromFiles) -> String {
        guard !drawn.isEmpty else { return "nothing" }
        let models = drawn.models.filter(\.value).keys.sorted()
        return "\(drawn.tracePoints) trace points in \(drawn.traceFields) fields, \(drawn.historySteps) history steps, "
            + models.joined(separator: ", ")
    }

    private static func ms(_ value: Double) -> String {
        String(format: "%.1f", locale: Locale(identifier: "en_US_POSIX"), value)
    }

    private static func percent(_ share: Double) -> String {
        String(format: "%.1f %%", locale: Locale(identifier: "en_US_POSIX"), share * 100)
    }
}
