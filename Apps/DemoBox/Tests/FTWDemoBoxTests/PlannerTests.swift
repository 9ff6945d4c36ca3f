import FTWBoxProtocol
import Testing

@testable import FTWDemoBox

/// The box's reason rules (§6) on slots the demo's own planner does not always produce.
@Suite struct PlannerTests {
    struct Slot: Sendable, CustomTestStringConvertible {
        var batteryW: Int64
        var gridW: Int64
        var loadPlusPVW: Int64
        var isExpensive = false
        var isAtReserve = false
        var ceilingW: Int64?
        var reason: PlanReason

        var testDescription: String { reason.rawValue }
    }

    static let slots: [Slot] = [
        Slot(batteryW: -3000, gridW: 2000, loadPlusPVW: 9000, ceilingW: 6000, reason: .peakShaving),
        Slot(batteryW: -3000, gridW: 2000, loadPlusPVW: 5000, ceilingW: 6000, reason: .expensiveImport),
        Slot(batteryW: 2000, gridW: 0, loadPlusPVW: -2000, reason: .solarSurplus),
        Slot(batteryW: 2000, gridW: 500, loadPlusPVW: -2000, reason: .cheapImport),
        Slot(batteryW: 3000, gridW: 3800, loadPlusPVW: 800, reason: .cheapImport),
        Slot(batteryW: -2000, gridW: -1500, loadPlusPVW: 500, reason: .exportPaid),
        Slot(batteryW: -2000, gridW: 0, loadPlusPVW: 2000, reason: .expensiveImport),
        Slot(batteryW: 0, gridW: 900, loadPlusPVW: 900, isExpensive: true, isAtReserve: true, reason: .reserveHeld),
        Slot(batteryW: 50, gridW: -800, loadPlusPVW: -850, reason: .exportPaid),
        Slot(batteryW: 0, gridW: 400, loadPlusPVW: 400, isExpensive: true, reason: .idle),
    ]

    @Test(arguments: slots)
    func eachSlotGetsTheReasonTheBoxsRulesGive(slot: Slot) {
        let reason = Planner.reason(
            batteryW: slot.batteryW,
            gridW: slot.gridW,
            loadPlusPVW: slot.loadPlusPVW,
            isExpensive: slot.isExpensive,
            isAtReserve: slot.isAtReserve,
            ceilingW: slot.ceilingW
        )
        #expect(reason == slot.reason)
    }
}
