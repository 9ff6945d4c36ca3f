import Foundation
import Headless
import Testing

/// Issue 9's soak, kept short for a debug test run: random life against the demo box on the simulated clock, with
/// every invariant of the cache checked throughout. `ftw-headless soak` runs the full 24 simulated hours.
@Suite struct SoakTests {
    @Test(arguments: [UInt64(1), 2, 3])
    func sixSimulatedHoursBreakNoInvariant(seed: UInt64) async throws {
        let result = try await Soak(seed: seed, hours: 6, checksResidentMemory: false).run()
        #expect(result.findings.isEmpty, "\(result.findings.map(\.description).joined(separator: "\n"))")
        let totals = result.totals
        #expect(totals.simulatedMs >= 6 * 3_600_000)
        #expect(totals.frames > 0 && totals.bytesSent > 0 && totals.bytesReceived > totals.bytesSent)
        #expect(totals.events["launches", default: 0] > 1, "the soak kills and relaunches the app")
        #expect(totals.peakRingBytes > 0 && totals.peakRingBytes <= totals.ringBound)
        #expect(totals.peakTilesBytes > 0 && totals.peakTilesBytes <= totals.tilesBound)
    }

    @Test func theSameSeedDrawsTheSameSoak() {
        #expect(Soak(seed: 42, hours: 24).scenario == Soak(seed: 42, hours: 24).scenario)
        #expect(Soak(seed: 42, hours: 24).scenario != Soak(seed: 43, hours: 24).scenario)
    }

    @Test func theScenarioCoversTheFaultsItPromises() {
        let steps = Soak(seed: 7, hours: 24).scenario.steps
        #expect(steps.contains(.kill) && steps.contains(.box(.cutCarriers)) && steps.contains(.box(.reboot)))
        #expect(steps.contains { if case .box(.deviceQuiet(_, true)) = $0 { true } else { false } })
        #expect(steps.contains { if case .box(.publishAt) = $0 { true } else { false } })
        #expect(steps.contains { if case .refresh = $0 { true } else { false } })
    }
}
