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
        let request = ReadRequest.prices(PriceGet(fromMs: day.startMs, toMs: day.endMs))
        let answer = try await session.read(request, order: byPerson ? .person : .rest)
        guard case .prices(let price) = answer else {
            throw SessionError(
                .malformedAnswer,
                PricesError(.unexpectedAnswer, "price.get answered \(answer)").description
            )
        }
        do {
            return try PriceWindow(answer: price, day: day)
        } catch {
            throw SessionError(.malformedAnswer, error.description)
        }
    }
}
