import FTWClient
import FTWFixtures
import FTWSession
import Foundation
import Testing

/// The compositions on the real clocks say how their sessions' deadlines sleep, having made the clock: a session
/// left to ask would scan every protocol conformance of the program in its first dial (0.57 M instructions when the
/// answer is no, the cost the first-dial benchmark row showed).
@Suite struct WallClockCompositionTests {
    @Test func theClientSaysItsDeadlinesMoveOnItsLoopsClock() async throws {
        let scratch = try ScratchFolder()
        let folder = try await SamplePairing.folder(at: scratch.url.appendingPathComponent("phone"))
        let client = try HeadlessClient.onWallClock(paired: SamplePairing.record, store: try folder.open())
        let said = await client.session.deadlineSleep
        await client.close()
        guard case .moving = said else {
            Issue.record("the wall-clock client left its session to ask its clock (\(said))")
            return
        }
    }

    @Test func aPairingSaysItsDeadlinesSleepPlainly() async throws {
        let scratch = try ScratchFolder()
        let folder = try await SamplePairing.folder(at: scratch.url.appendingPathComponent("phone"))
        let said = Pairing.onWallClock(store: try folder.open()).deadlineSleep
        guard case .plain = said else {
            Issue.record("the wall-clock pairing left its session to ask its clock (\(said))")
            return
        }
    }
}
