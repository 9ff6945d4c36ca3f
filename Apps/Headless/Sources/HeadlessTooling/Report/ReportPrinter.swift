import FTWClient
public import Foundation

/// Turns reports into what a person reads in a terminal: a block per stay, and the seed's table side by side.
public struct ReportPrinter: Sendable {
    /// The zone the times of day are written in (the box's).
    public var timeZone: TimeZone

    /// Makes a printer that writes times of day in `timeZone`.
    public init(timeZone: TimeZone) { self.timeZone = timeZone }

    /// One scenario's stays, with what each cost the box and what the person saw.
    public func text(of report: ScenarioReport) -> String {
        let seconds = String(format: "%.2f", Double(report.realMs) / 1000)
        let covered =
            report.onWallClock
            ? "\(duration(report.simulatedMs)) on the wall clock"
            : "\(duration(report.simulatedMs)) simulated in \(seconds) s"
        var lines = ["\(report.name) (\(report.policy)): \(report.stays.count) stays, \(covered)"]
        for stay in report.stays { lines += self.lines(of: stay) }
        for line in report.sealedFiles { lines.append("sealed files: \(line)") }
        for note in report.notes { lines.append("note: \(note)") }
        for error in report.errors { lines.append("ERROR: \(error)") }
        return lines.joined(separator: "\n")
    }

    /// The seed's table: request frames per stay under both policies, and the ratio of their totals.
    public func table(ageKeyed: ScenarioReport, everyReturn: ScenarioReport) -> String {
        let count = max(ageKeyed.stays.count, everyReturn.stays.count)
        let header =
            "request frames per stay".padding(toLength: 26, withPad: " ", startingAt: 0)
            + (1...max(count, 1)).map { pad("\($0)") }.joined() + pad("total", 7)
        func row(_ label: String, _ report: ScenarioReport) -> String {
            label.padding(toLength: 26, withPad: " ", startingAt: 0)
                + report.requestsPerStay.map { pad("\($0)") }.joined()
                + pad("\(report.totalRequests)", 7)
        }
        var lines = [header, row("age-keyed (this client)", ageKeyed), row("every-return (old app)", everyReturn)]
        if ageKeyed.totalRequests > 0 {
            let ratio = Double(everyReturn.totalRequests) / Double(ageKeyed.totalRequests)
            lines.append(String(format: "ratio of totals: %.2f× fewer request frames with the age-keyed policy", ratio))
        }
        for error in ageKeyed.errors + everyReturn.errors { lines.append("ERROR: \(error)") }
        return lines.joined(separator: "\n")
    }

    private func lines(of stay: StayReport) -> [String] {
        let kinds = stay.requestsByType.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }
        var lines = [
            "stay \(stay.number)  \(stay.launched ? "launch" : "return")  \(timeOfDay(stay.beganAtMs))  "
                + "\(stay.total) request frame\(stay.total == 1 ? "" : "s")"
                + (kinds.isEmpty ? "" : ": \(kinds.joined(separator: ", "))")
        ]
        for request in stay.requests { lines.append("    \(request)") }
        if let drawn = stay.drawnBeforeConnect {
            lines.append("    drawn before connecting: \(drawn)")
        }
        if let movesAtMs = stay.boxMovesAtMs {
            lines.append("    the box moves to this hour's room at \(timeOfDay(movesAtMs))")
        }
        let content = stay.firstContentMs.map(duration) ?? "never"
        let live = stay.liveMs.map(duration) ?? "never"
        lines.append("    first content \(content), live \(live); asks log \(stay.asksLogged)")
        if let why = stay.notLiveBecause { lines.append("    never live: \(why)") }
        if let mismatch = stay.mismatch { lines.append("    ERROR: \(mismatch)") }
        return lines
    }

    private func timeOfDay(_ ms: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }

    private func duration(_ ms: Int64) -> String {
        if ms < 1000 { return "\(ms) ms" }
        if ms < 60_000 { return String(format: "%.1f s", Double(ms) / 1000) }
        return "\(ms / 60_000)m\(String(format: "%02d", (ms / 1000) % 60))s"
    }

    private func pad(_ text: String, _ width: Int = 4) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
