import FTWBoxProtocol
import FTWBus
import FTWSessionInterface
import Foundation

extension PriceWindowModel {
    /// Asks the box for the window of the local day containing `nowMs` and takes its answer.
    ///
    /// - Throws: `SessionError` from the read, or a ``PricesError`` when the answer does not add up.
    static func askWindow(
        session: any BoxSession,
        nowMs: Int64,
        timeZone: TimeZone,
        byPerson: Bool
    ) async throws -> PriceWindow {
        guard let day = PriceDay(containing: nowMs, in: timeZone) else {
            throw PricesError(.unplaceableDay, "\(nowMs) ms has no day in \(timeZone.identifier)")
        }
        let price = try await session.read(
            .prices(PriceGet(fromMs: day.startMs, toMs: day.endMs)),
            order: byPerson ? .person : .rest
        )
        return try PriceWindow(answer: price, day: day)
    }
}
