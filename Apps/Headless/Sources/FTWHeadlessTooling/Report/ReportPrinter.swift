import FTWClient
public import Foundation

/// Turns reports into what a person reads in a terminal: a block per stay, and the seed's table side by side.
public struct ReportPrinter: Sendable {
    /// The zone the times of day are written in (the box's).
    public var timeZone: TimeZone
    /// Whether each stay lists its connection's timeline (`run --timeline`); `--json` always carries it.
    public var showsTimeline: Bool

    /// Makes a printer that writes times of day in `timeZone`.
    public init(timeZone: TimeZone, showsTimeline: Bool = false) {
        self.timeZone = timeZone
        self.showsTimeline = showsTimeline
    }

    /// One scenario's stays, with what each cost the box and what the person saw.
    public func text(of report: ScenarioReport) -> String {
        let seconds = String(format: "%.2f", Double(report.realMs) / 1000)
        let covered =
            report.onWallClock
            ? "\(duration(report.simulatedMs)) on the wall clock"
            : "\(duration(report.simulatedMs)) simulated in \(seconds) s"
        var lines = ["\(report.name) (\(report.policy)): \(report.stays.count) stays, \(covered)"]
        let firstDay = report.stays.first.map { day(of: $0.beganAtMs) }
        for stay in report.stays { lines += self.lines(of: stay, dated: day(of: stay.beganAtMs) != firstDay) }
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

    /// A stay on another day than the first (a return after days away) names its date too.
    private func lines(of stay: StayReport, dated: Bool) -> [String] {
        let kinds = stay.requestsByType.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }
        let began = (dated ? day(of: stay.beganAtMs) + " " : "") + timeOfDay(stay.beganAtMs)
        var lines = [
            "stay \(stay.number)  \(stay.launched ? "launch" : "return")  \(began)  "
                + "\(stay.total) request frame\(stay.total == 1 ? "" : "s")"
                + (kinds.isEmpty ? "" : ": \(kinds.joined(separator: ", "))")
        ]
        for request in stay.requests { lines.append("    \(request)") }
        if let drawn = stay.drawnBeforeConnect {
            lines.append("    drawn before connecting: \(drawn)")
        }
        if let movesAtMs = stay.boxMovesAtMs {
            lines.append("    the box moves to this hour's room \(between(movesAtMs, stay.boxDueByMs))")
        }
        let content = stay.firstContentMs.map(duration) ?? "never"
        let live = stay.liveMs.map(duration) ?? "never"
        lines.append("    first content \(content), live \(live); asks log \(stay.asksLogged)")
        if stay.liveTime.staleMs > 0 {
            lines.append(
                "    live for \(duration(stay.liveTime.liveMs)), stale for \(duration(stay.liveTime.staleMs))"
            )
        }
        if let why = stay.notLiveBecause { lines.append("    never live: \(why)") }
        for read in stay.failedReads {
            let shown = read.olderAnswerShown ? "the older answer is still shown" : "nothing is shown for it"
            lines.append("    failed read: \(read.what) at \(timeOfDay(read.atMs, exact: true)): \(read.why); \(shown)")
        }
        for command in stay.commands { lines.append("    " + line(of: command)) }
        for look in stay.looks { lines += self.lines(of: look, as: "look") }
        if let shown = stay.shownAtEnd { lines += self.lines(of: shown, as: "shown at the end") }
        if showsTimeline, !stay.timeline.isEmpty {
            lines.append("    timeline:")
            lines += stay.timeline.map { "      \(timeOfDay($0.atMs, exact: true))  \(line(of: $0))" }
        }
        if let mismatch = stay.mismatch { lines.append("    ERROR: \(mismatch)") }
        return lines
    }

    /// What the screen showed at a moment: the connection, then every value with its moment, basis and age.
    private func lines(of shown: ShownAges, as label: String) -> [String] {
        ["    \(label) at \(timeOfDay(shown.atMs, exact: true)): \(shown.connection)"]
            + shown.lines.map { "      \($0)" }
    }

    private func line(of command: CommandReport) -> String {
        let given =
            "command \(command.command) at \(timeOfDay(command.atMs, exact: true))"
            + (command.inBackground == true ? " (given in the background)" : "")
        guard let settled = command.settledAtMs else { return "\(given): not settled when the scenario ended" }
        let after = "after \(duration(settled - command.atMs))"
        switch (command.state, command.error) {
        case (let state?, let error?): return "\(given): \(state) (\(error)) \(after)"
        case (let state?, nil): return "\(given): \(state) \(after)"
        case (nil, let error): return "\(given): failed \(after): \(error ?? "no answer")"
        }
    }

    private func line(of step: ConnectionStep) -> String {
        switch step.kind {
        case .dial: return "dial (attempt \(step.attempt ?? 1))"
        case .awaitingBox:
            return
                "awaiting the box: it moves to this hour's room \(between(step.boxMovesAtMs ?? step.atMs, step.boxDueByMs))"
        case .handshake: return "handshake"
        case .helloOK: return "hello_ok (build \(step.build ?? "?"))"
        case .live: return "live" + (step.cause.map { ": \($0)" } ?? "")
        case .stale: return "stale" + (step.cause.map { ": \($0)" } ?? "")
        case .networkChange: return "network change"
        case .close:
            let code = step.code.map {
                " \($0)" + ((step.closeReason ?? "").isEmpty ? "" : " \"\(step.closeReason ?? "")\"")
            }
            let retry = step.nextTryAtMs.map { nextTry in
                "; backing off: attempt \(step.nextAttempt ?? 1) at \(timeOfDay(nextTry, exact: true))"
            }
            return "close\(code ?? ""): \(step.reason ?? "")\(retry ?? "")"
        }
    }

    /// When the box comes into this hour's room: between the relay's earliest move and the box's latest rejoin, as
    /// the relay moves the room on a heartbeat a phone cannot see; with no latest known, the earliest alone.
    private func between(_ movesAtMs: Int64, _ dueByMs: Int64?) -> String {
        guard let dueByMs else { return "at \(timeOfDay(movesAtMs))" }
        return "between \(timeOfDay(movesAtMs)) and \(timeOfDay(dueByMs))"
    }

    private func timeOfDay(_ ms: Int64, exact: Bool = false) -> String {
        format(ms, exact ? "HH:mm:ss.SSS" : "HH:mm:ss")
    }

    private func day(of ms: Int64) -> String {
        format(ms, "yyyy-MM-dd")
    }

    private func format(_ ms: Int64, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
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
