import FTWBoxProtocol
import FTWClockSeam
import FTWPrices
import FTWSessionInterface
import Foundation
import Synchronization

/// The box's side of prices and the plan, as the tests script it: today's rates always, tomorrow's from
/// ``publishAtMs`` on, in slots of ``slotMinutes``; and a plan.
final class ScriptedBox: Sendable {
    private struct State {
        var publishAtMs: Int64 = .max
        var slotMinutes: Int64 = 15
        var plan = Plan(rev: 1, uptimeMs: 0, slots: [], stale: true, ceilingW: nil)
        var price: Price?
    }

    private let state = Mutex(State())
    private let clock: any WallClock
    private let zone: TimeZone

    init(clock: any WallClock, zone: TimeZone = LocalTime.stockholm) {
        self.clock = clock
        self.zone = zone
    }

    /// Tomorrow's rates appear at this instant (Unix ms); before it the window stops at tomorrow's midnight.
    func publish(at ms: Int64) { state.withLock { $0.publishAtMs = ms } }
    /// The length of every slot the box sends.
    func slots(of minutes: Int64) { state.withLock { $0.slotMinutes = minutes } }
    /// The plan the box answers with.
    func plan(_ plan: Plan) { state.withLock { $0.plan = plan } }
    /// A fixed price answer, whatever the window asked.
    func price(_ price: Price) { state.withLock { $0.price = price } }

    /// Answers one read.
    func answer(_ request: ReadRequest) -> Result<ReadAnswer, SessionError> {
        switch request {
        case .prices(let get): .success(.prices(price(for: get)))
        case .plan: .success(.plan(state.withLock { $0.plan }))
        default: .failure(SessionError(.box, "not scripted", box: ErrorBody(code: .unknownOp)))
        }
    }

    private func price(for get: PriceGet) -> Price {
        let (fixed, publishAtMs, slotMinutes) = state.withLock { ($0.price, $0.publishAtMs, $0.slotMinutes) }
        if let fixed { return fixed }
        let tomorrow = PriceDay(containing: get.fromMs, in: zone)!.tomorrowMs
        let coveredTo = clock.nowMs >= publishAtMs ? get.toMs : min(get.toMs, tomorrow)
        let step = slotMinutes * 60_000
        let slots = stride(from: get.fromMs, to: coveredTo, by: Int(step)).map { start in
            PriceSlot(
                startMs: start,
                durationMs: step,
                spotMinor: start / step % 97,
                totalMinor: start / step % 97 + 60
            )
        }
        return Price(zone: "SE3", currency: "SEK", slots: slots, stale: coveredTo < get.toMs)
    }
}
