import FTWHeadlessTooling
import Foundation
import Testing

/// Issue 9's soak, kept short for a debug test run: random life against the demo box on the simulated clock, with
/// every invariant of the cache checked throughout. `ftw-headless soak` runs the full 24 simulated hours.
///
/// Serialized: the soaks are the heaviest tests in the run, and one core is enough for them while the loopback tests
/// wait on real sockets beside them.
@Suite(.serialized) struct SoakTests {
    /// Each of these stretches relaunches the app and meets the relay's own hour's turn while the app is in front
    /// (the relay moves its room) and on a return (it waits for the box). Adding the relay's restart to the mix drew
    /// every seed anew: seed 2's first six hours no longer relaunch, so seed 3 stands in.
    @Test(arguments: [(UInt64(1), 6.0), (3, 6.0), (4, 7.5)])
    func hoursOfRandomLifeBreakNoInvariant(seed: UInt64, hours: Double) async throws {
        let result = try await Soak(seed: seed, hours: hours, checksResidentMemory: false).run()
        #expect(result.findings.isEmpty, "\(result.findings.map(\.description).joined(separator: "\n"))")
        let totals = result.totals
        #expect(Double(totals.simulatedMs) == hours * 3_600_000)
        #expect(totals.frames > 0 && totals.bytesSent > 0 && totals.bytesReceived > totals.bytesSent)
        #expect(totals.events["launches", default: 0] > 1, "the soak kills and relaunches the app")
        #expect(totals.events["hour's turns in front", default: 0] > 0, "the relay moves the room under the app")
        #expect(totals.events["returns that waited for the box", default: 0] > 0, "a return waits for the box")
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
        #expect(steps.contains { if case .box(.update) = $0 { true } else { false } })
        #expect(steps.contains { if case .box(.failRead) = $0 { true } else { false } })
        #expect(steps.contains(.relay(.rotate)) && steps.contains(.relay(.slowDown)))
        #expect(steps.contains(.relay(.restart)))
        #expect(steps.contains(.relay(.skew(hours: 0))))
    }
}
