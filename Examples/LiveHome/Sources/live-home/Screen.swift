import FTWClient

/// What the terminal shows: the latest home screen and trace, drawn when either changed, at most once a second.
actor Screen {
    private let field: TraceField
    private var home: HomeScreen?
    private var trace: FieldTrace?
    private var changed = false
    private var frames = 0

    init(field: TraceField) {
        self.field = field
    }

    func set(_ home: HomeScreen) {
        self.home = home
        changed = true
    }

    func set(_ trace: FieldTrace) {
        self.trace = trace
        changed = true
    }

    /// Draws the first frame as soon as both observations gave their first value (what the sealed files drew).
    func drawWhenReady(nowMs: Int64) async {
        while home == nil || trace == nil {
            try? await Task.sleep(for: .milliseconds(10))
        }
        draw(nowMs: nowMs)
    }

    /// Redraws once a second while something changed, until cancelled.
    func drawEverySecond(nowMs: @Sendable () -> Int64) async {
        while (try? await Task.sleep(for: .seconds(1))) != nil {
            if changed, frames > 0 { draw(nowMs: nowMs()) }
        }
    }

    private func draw(nowMs: Int64) {
        guard let home, let trace else { return }
        changed = false
        frames += 1
        var lines = [statusLine(home, nowMs: nowMs), ""]
        lines += home.readings.map { "  \($0.name.padding(12)) \($0.value) \($0.unit)" }
        lines.append("  chargers: \(home.chargers.map { $0.map(\.name).joined(separator: ", ") } ?? "not known yet")")
        lines += ["", "\(trace.field), the last five minutes (o from the sealed files, * live, ░ missed)"]
        lines += Chart(trace: trace, nowMs: nowMs, width: 60, height: 8).rows
        lines.append(missedLine(trace.missed, nowMs: nowMs))
        // Home, each line cleared to its end, then everything below: the frame is redrawn in place. The newline
        // that ends it flushes a line-buffered terminal.
        print("\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\n") + "\u{1B}[J")
    }

    private func statusLine(_ home: HomeScreen, nowMs: Int64) -> String {
        let age = home.ageMs(nowMs: nowMs).map { " (\($0 / 1000) s old)" } ?? ""
        switch home.freshness {
        case .none: return "status: nothing yet"
        case .sealedFiles: return "status: cached, \(home.freshness)\(age)"
        case .live: return "status: live, \(home.freshness)"
        case .stale: return "status: not live, \(home.freshness)\(age)"
        }
    }

    private func missedLine(_ missed: MissedTime?, nowMs: Int64) -> String {
        guard let missed else { return "  missed: nothing (no ring file at launch)" }
        let seconds = missed.duration(nowMs: nowMs).components.seconds
        return "  missed: \(seconds) s while the app was away\(missed.untilMs == nil ? ", and counting" : "")"
    }

    /// Leaves the terminal below the last frame.
    nonisolated func leave() {
        print("")
    }
}

extension String {
    /// The text padded with spaces to `width` characters.
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
