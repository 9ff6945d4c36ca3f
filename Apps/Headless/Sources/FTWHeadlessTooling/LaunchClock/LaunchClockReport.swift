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
    /// `ftw-launch-baseline` on the folder with sealed files, when it was run.
    public var baseline: LaunchBaseline?
    /// Callgrind's count of one launch with sealed files and one baseline run, when it was asked for.
    public var instructions: LaunchInstructions?
    /// Every file a launch with sealed files created, rewrote, touched or removed before it was killed (one offline
    /// launch that only drew, and each timed launch until its first live reading), naming the launch: a launch
    /// writes nothing, so this is empty.
    public var writtenAtLaunch: [String]

    /// Makes a report.
    public init(
        latencyMs: Int,
        withFiles: LaunchSeries,
        withoutFiles: LaunchSeries,
        baseline: LaunchBaseline? = nil,
        instructions: LaunchInstructions? = nil,
        writtenAtLaunch: [String] = []
    ) {
        self.latencyMs = latencyMs
        self.withFiles = withFiles
        self.withoutFiles = withoutFiles
        self.baseline = baseline
        self.instructions = instructions
        self.writtenAtLaunch = writtenAtLaunch
    }

    /// The median first content with sealed files over the baseline's median, by the wall clock.
    public var contentRatio: Double? {
        guard let baseline, baseline.content.median > 0 else { return nil }
        return withFiles.content.median / baseline.content.median
    }

    /// The median processor time used until the first content with sealed files over the baseline's median.
    public var contentCPURatio: Double? {
        guard let baseline, baseline.contentCPU.median > 0 else { return nil }
        return withFiles.contentCPU.median / baseline.contentCPU.median
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
        ]
        if let baseline {
            let cells = [baseline.main, baseline.content].map(Self.cell)
            lines.append(
                "C baseline".padding(toLength: 20, withPad: " ", startingAt: 0) + cells[0] + Self.cell(nil) + cells[1]
            )
        }
        lines.append("")
        if let baseline, let ratio = contentRatio, let run = baseline.runs.first {
            lines.append(
                "first content against the C baseline (\(run.files) files, \(run.plainBytes) bytes read and opened): "
                    + "\(Self.times(ratio)) by the wall clock (median over median)"
            )
        }
        if let baseline, let ratio = contentCPURatio {
            lines.append(
                "processor time until the first content: \(Self.ms(withFiles.contentCPU.median)) ms "
                    + "(\(Self.ms(withFiles.contentCPU.min))–\(Self.ms(withFiles.contentCPU.max))) against the C baseline's "
                    + "\(Self.ms(baseline.contentCPU.median)) ms (\(Self.ms(baseline.contentCPU.min))–"
                    + "\(Self.ms(baseline.contentCPU.max))): \(Self.times(ratio)) (medians)"
            )
        }
        if let instructions {
            lines.append(
                "instructions from exec to the first content (callgrind): \(Self.millions(instructions.client)) against "
                    + "the C baseline's \(Self.millions(instructions.baseline)): \(Self.times(instructions.ratio)) "
                    + "(target at most 1.5×)"
            )
        }
        if let drawn = withFiles.launches.first?.drawn {
            lines.append("with files, drawn before anything connected: \(Self.describe(drawn))")
        }
        if let drawn = withoutFiles.launches.first?.drawn {
            lines.append("without files, drawn before anything connected: \(Self.describe(drawn))")
        }
        lines.append(
            "files written by the launches with sealed files, before live: "
                + (writtenAtLaunch.isEmpty ? "none" : writtenAtLaunch.joined(separator: "; "))
        )
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

    private static func cell(_ spread: LaunchSpread?) -> String {
        guard let spread else { return rightAligned("—") }
        return rightAligned("\(ms(spread.median)) (\(ms(spread.min))–\(ms(spread.max)))")
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

    private static func millions(_ count: Int) -> String {
        String(format: "%.2f M", locale: Locale(identifier: "en_US_POSIX"), Double(count) / 1_000_000)
    }

    private static func times(_ ratio: Double) -> String {
        String(format: "%.2f×", locale: Locale(identifier: "en_US_POSIX"), ratio)
    }

    private static func percent(_ share: Double) -> String {
        String(format: "%.1f %%", locale: Locale(identifier: "en_US_POSIX"), share * 100)
    }
}
