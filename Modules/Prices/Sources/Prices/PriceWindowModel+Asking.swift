import BoxProtocol
import Foundation
import SessionInterface

extension PriceWindowModel {
    /// Asks the box for the window of the local day containing `nowMs` and takes its answer.
    ///
    /// - Throws: `SessionError` from the read; `.malformedAnswer` carrying a ``PricesError`` when the answer does not
    ///   add up; `.cancelled` when no time zone is known yet.
    static func askWindow(
        session: any BoxSession,
        nowMs: Int64,
        timeZone: TimeZone?,
        byPerson: Bool
    ) async throws(SessionError) -> PriceWindow {
        guard let timeZone, let day = PriceDay(containing: nowMs, in: timeZone) else {
            throw SessionError(.cancelled, "the box's time zone is not known yet")
        }
        let price = try await session.read(
            .prices(PriceGet(fromMs: day.startMs, toMs: day.endMs)),
            order: byPerson ? .person : .rest
        )
        do {
            return try PriceWindow(answer: price, day: day)
        } catch {
            throw SessionError(.malformedAnswer, error.description)
        }
    }
}
