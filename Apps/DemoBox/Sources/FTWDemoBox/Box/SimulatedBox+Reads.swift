import FTWBoxProtocol
import FTWClockSeam

extension SimulatedBox {
    /// `plan.get` → `plan`, regenerated first if the quarter turned.
    func onPlanGet(_ envelope: Envelope, session number: Int) {
        send(planMessage(id: envelope.id), id: envelope.id, to: number)
    }

    /// `price.get` → `price`: without an id it is ignored, a body the box cannot decode (a float time) is dropped,
    /// and `toMs <= fromMs` is `E_UNKNOWN_OP {t}`.
    func onPriceGet(_ envelope: Envelope, session number: Int) {
        guard let id = envelope.id, let body = envelope.body, let get = try? PriceGet(body: body) else { return }
        guard get.toMs > get.fromMs else {
            return sendError(.unknownOp, ["t": .text(PriceGet.wireType)], id: id, to: number)
        }
        let answer = prices.answer(fromMs: get.fromMs, toMs: get.toMs, nowMs: wallClock.nowMs, late: pricesLate)
        let message = BulkFit.fitting(answer.slots, id: id) { slots, cut in
            .price(Price(zone: answer.zone, currency: answer.currency, slots: slots, stale: answer.stale || cut))
        }
        send(message, id: id, to: number)
    }

    /// The plan as sent now, cut to one bulk frame.
    func planMessage(id: UInt32?) -> Message {
        let wallMs = wallClock.nowMs
        refreshPlanIfQuarterTurned(wallMs: wallMs)
        let plan = plan.message(nowMs: wallMs, ceilingW: planner.ceilingW)
        return BulkFit.fitting(plan.slots, id: id) { slots, _ in
            var cut = plan
            cut.slots = slots
            return .plan(cut)
        }
    }

    /// The planner runs again each quarter.
    func refreshPlanIfQuarterTurned(wallMs: Int64) {
        guard Self.quarter(wallMs) != planQuarter else { return }
        regeneratePlan()
    }

    /// A new plan from now: `rev` moves on.
    func regeneratePlan() {
        let wallMs = wallClock.nowMs
        plan.rev += 1
        plan.generatedAtMs = wallMs
        plan.uptimeMs = uptime.nowMs
        plan.slots = planner.slots(
            nowMs: wallMs,
            uptimeMs: plan.uptimeMs,
            pricesLate: pricesLate,
            mode: house.mode,
            storedWh: house.storedWh,
            car: house.car
        )
        planQuarter = Self.quarter(wallMs)
    }

    /// The battery power the plan holds for now, which the planner modes follow.
    func plannedBatteryW(_ wallMs: Int64) -> Double? {
        plan.slots.first { $0.startMs <= wallMs && wallMs < $0.startMs + $0.durationMs }.map { Double($0.batteryW) }
    }

    private static func quarter(_ wallMs: Int64) -> Int64 {
        (wallMs - LocalZone.floorMod(wallMs, Planner.slotMs)) / Planner.slotMs
    }
}
