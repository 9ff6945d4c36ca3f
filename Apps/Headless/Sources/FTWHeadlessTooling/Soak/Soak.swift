import Foundation

/// A long run of random life against the demo box on the simulated clock, with the cache's invariants checked
/// throughout: the soak of issue 9 (docs/soak.md).
///
/// ```swift
/// let result = try await Soak(seed: 7, hours: 24).run()
/// print(result.totals.frames, result.findings)
/// ```
public struct Soak: Sendable {
    /// The seed the scenario is drawn from: the same seed is the same soak.
    public var seed: UInt64
    /// Simulated hours to cover.
    public var hours: Double
    /// Whether resident memory is checked as well as the models' own counts: off where other work shares the
    /// process (a test run), which makes the process's memory say nothing about the soak's.
    public var checksResidentMemory: Bool
    /// Whether the result keeps every step, request frame and settled ask in time order: what a person reads to
    /// see how a finding came about.
    public var keepsTimeline: Bool

    /// Makes a soak.
    public init(seed: UInt64, hours: Double, checksResidentMemory: Bool = true, keepsTimeline: Bool = false) {
        self.seed = seed
        self.hours = hours
        self.checksResidentMemory = checksResidentMemory
        self.keepsTimeline = keepsTimeline
    }

    /// The scenario the seed draws.
    public var scenario: Scenario {
        var generator = SoakGenerator(seed: seed, hours: hours)
        return generator.scenario()
    }

    /// Plays the scenario and checks every invariant.
    ///
    /// - Throws: `ScenarioError` when a step cannot run (a generator mistake, never a client's).
    public func run() async throws -> SoakResult {
        let scenario = scenario
        let watch = SoakWatch()
        var runner = ScenarioRunner(scenario: scenario, name: "soak-\(seed)")
        runner.observer = watch
        let (report, _) = try await runner.run()
        let timeline = await watch.timeline
        let zone = TimeZone(identifier: scenario.settings.timeZone) ?? .gmt
        let startMs = try ScenarioRunner.midnight(of: scenario.settings.date, in: zone) + SoakGenerator.startTimeOfDayMs
        let invariants = SoakInvariants(
            timeline: timeline,
            stays: report.stays,
            startMs: startMs,
            endMs: startMs + report.simulatedMs,
            zone: zone,
            checksResidentMemory: checksResidentMemory
        )
        return SoakResult(
            totals: SoakTotalsCounter(timeline: timeline, report: report, seed: seed).totals,
            findings: invariants.findings,
            timeline: keepsTimeline ? timeline.lines(startMs: startMs) : nil
        )
    }
}
