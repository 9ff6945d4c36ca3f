public import FTWClient
import FTWClockSeam
public import FTWSeal
public import FTWSealInterface

extension ScenarioRunner {
    /// Runs the scenario on the wall clock against a paired box in another process (`ftw-demobox`), through the
    /// relay the site was paired over, with the phone's own sealed files in `folder`.
    ///
    /// Waits are real, so the scenario takes as long as it says. The first `at` is now (a second from now): times
    /// of day only place the steps after it. Box knobs cannot be turned from here, and the box's received requests
    /// are not visible, so each stay lists the asks log and the report says so in its notes.
    ///
    /// `lock` is the data folder's, when the caller holds it already; otherwise this run takes it.
    ///
    /// - Throws: `ScenarioError` for a step that cannot run or a site that is not paired through a relay;
    ///   `SealError` `.folderInUse` when another client holds the data folder.
    public func runOnWallClock(
        site: SiteID,
        folder: DataFolder,
        lock: FolderLock? = nil
    ) async throws -> (
        report: ScenarioReport, picture: SVGChart?
    ) {
        let started = ContinuousClock.now
        let startedMs = SystemWallClock().nowMs
        let startTime = Self.startTime(scenario.steps) ?? 0
        let world = ScenarioWorld(
            stage: WallClockStage(site: site),
            folder: folder.url,
            policy: policy ?? scenario.settings.policy,
            instantOfTimeOfDay: { [firstAtMs = startedMs + 1_000] in firstAtMs - startTime + $0 },
            lock: try lock ?? FolderLock(folder: folder.url)
        )
        let outcome = try await world.play(scenario.lines)
        var report = outcome.report
        report.name = name
        report.simulatedMs = SystemWallClock().nowMs - startedMs
        report.onWallClock = true
        report.realMs = (ContinuousClock.now - started).wholeMilliseconds
        return (report, outcome.picture)
    }
}
