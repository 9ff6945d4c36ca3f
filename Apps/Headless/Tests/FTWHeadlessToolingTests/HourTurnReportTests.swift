import FTWSessionInterface
import Foundation
import Testing

@testable import FTWHeadlessTooling

/// A stay that waited in the room for its box at the relay's hour's turn says when the box comes, in the text and in
/// `--json`; a stay that did not says nothing of it.
@Suite struct HourTurnReportTests {
    private static let hourStartMs: Int64 = 1_777_780_800_000
    private static let arrival = BoxArrival(movesAtMs: hourStartMs + 121_357, dueByMs: hourStartMs + 141_357)

    private static func report(awaiting: Bool) -> StayReport? {
        var book = StayBook()
        book.inFront(atMs: hourStartMs + 20_000)
        book.connection(.dialing(attempt: 1), atMs: hourStartMs + 20_000)
        if awaiting { book.connection(.awaitingBox(arrival), atMs: hourStartMs + 20_100) }
        book.connection(.handshaking, atMs: arrival.movesAtMs + 2_000)
        book.streamReturned(atMs: arrival.movesAtMs + 3_000)
        return book.reports(received: nil, asks: [], endMs: arrival.movesAtMs + 3_000).first
    }

    /// The relay moves the box on a heartbeat the phone cannot see: the report names the whole window, from the offset
    /// to the box's latest rejoin a beat and 5 s later.
    @Test func aStayThatWaitedForItsBoxSaysBetweenWhenItMoves() throws {
        let stay = try #require(Self.report(awaiting: true))
        #expect(stay.boxMovesAtMs == Self.arrival.movesAtMs)
        #expect(stay.boxDueByMs == Self.arrival.dueByMs)
        #expect(stay.liveMs == 104_357)
        let document = ScenarioReport(
            name: "turn",
            policy: "age-keyed",
            stays: [stay],
            errors: [],
            heldAtEnd: nil,
            simulatedMs: 0,
            realMs: 0
        )
        let text = ReportPrinter(timeZone: .gmt).text(of: document).split(separator: "\n")
        #expect(text.contains("    the box moves to this hour's room between 04:02:01 and 04:02:21"))
        #expect(
            stay.timeline.contains {
                $0.kind == .awaitingBox && $0.boxMovesAtMs == Self.arrival.movesAtMs
                    && $0.boxDueByMs == Self.arrival.dueByMs
            }
        )
        let json = try String(decoding: JSONEncoder().encode(stay), as: UTF8.self)
        #expect(json.contains("\"boxMovesAtMs\":\(Self.arrival.movesAtMs)"))
        #expect(json.contains("\"boxDueByMs\":\(Self.arrival.dueByMs)"))
    }

    @Test func aStayThatDidNotWaitSaysNothingOfIt() throws {
        let stay = try #require(Self.report(awaiting: false))
        #expect(stay.boxMovesAtMs == nil)
        let json = try String(decoding: JSONEncoder().encode(stay), as: UTF8.self)
        #expect(!json.contains("boxMovesAtMs") && !json.contains("boxDueByMs"))
    }
}
