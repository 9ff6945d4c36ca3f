import Foundation

extension HeadlessCommand {
    /// The usage lines of `soak`.
    static let soakUsage = """
          soak [--hours N] [--seed S] [--json] [--timeline]
              Random life on the simulated clock (default 24 hours, seed 1): glances, backgrounds, kills, views,
              refreshes, prices early and late, carrier cuts, box reboots and updates, one failing read, quiet
              devices, relay rotations, a skewed relay clock, spent join allowances; checks the cache's
              invariants throughout and prints the totals and every finding (exit 1 if any); --timeline also
              prints every step, request frame and settled ask in time order.
        """

    /// `ftw-headless soak`: plays the seed's soak and prints its totals and findings.
    static func soak(_ options: inout CommandOptions) async throws -> Int32 {
        let json = options.flag("--json")
        let keepsTimeline = options.flag("--timeline")
        let hours = try options.value("--hours").map { text in
            guard let hours = Double(text), hours > 0, hours <= 24 * 14 else {
                throw CommandError("'--hours' takes a number of hours above 0 and at most 336, not '\(text)'")
            }
            return hours
        }
        let seed = try options.value("--seed").map { text in
            guard let seed = UInt64(text) else { throw CommandError("'--seed' takes a whole number, not '\(text)'") }
            return seed
        }
        try options.finish()
        let result = try await Soak(seed: seed ?? 1, hours: hours ?? 24, keepsTimeline: keepsTimeline).run()
        if json {
            try printJSON(result)
        } else {
            print(text(of: result))
        }
        return result.findings.isEmpty ? 0 : 1
    }

    /// The totals a person reads, then each finding on its own line.
    static func text(of result: SoakResult) -> String {
        let totals = result.totals
        let hours = Double(totals.simulatedMs) / 3_600_000
        var lines = [
            "soak seed \(totals.seed): \(String(format: "%.1f", hours)) simulated hours, \(totals.steps) steps, "
                + "\(totals.stays) stays, in \(String(format: "%.1f", Double(totals.realMs) / 1000)) s",
            "request frames: \(totals.frames) (\(listed(totals.framesByType))); by model: \(listed(totals.framesByModel))",
            "bytes: \(totals.bytesSent) sent, \(totals.bytesReceived) received",
            "survived: \(listed(totals.events))",
            "ring file: peak \(totals.peakRingBytes) of \(totals.ringBound) bytes; tiles file: peak "
                + "\(totals.peakTilesBytes) of \(totals.tilesBound) bytes",
        ]
        for sample in totals.memory {
            lines.append(
                "memory at \(SoakFinding.elapsed(sample.atMs)): resident \(sample.residentBytes >> 20) MiB, trace "
                    + "\(sample.traceBytes) bytes (\(sample.tracePoints) points), history \(sample.historySteps) steps"
            )
        }
        lines += result.timeline ?? []
        lines.append(result.findings.isEmpty ? "findings: none" : "findings: \(result.findings.count)")
        lines += result.findings.map { "  \($0)" }
        return lines.joined(separator: "\n")
    }

    private static func listed(_ counts: [String: Int]) -> String {
        counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
}
