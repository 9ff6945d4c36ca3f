import FTWBoxProtocol
import FTWFixtures
import Testing

/// The history arithmetic (§4.1-4.3): the same tiles as the box from the same inputs.
@Suite struct HistoryGeometryTests {
    static let hourMs: Int64 = 3_600_000
    static let dayMs: Int64 = 86_400_000
    /// A Thursday 00:00 UTC, where a 1h tile starts: 2025-10-09.
    static let weekStart: Int64 = 2910 * 604_800_000
    /// An unaligned "now": 2025-10-09T08:53:20Z.
    static let now: Int64 = 1_760_000_000_000

    @Test func computesTheEtagVectors() throws {
        let etag = try #require(try Vectors.json("box-envelopes.json")["etag"] as? [String: String])
        #expect(Etag.of(Array(0...15)) == etag["bytes_00_to_0f"])
        #expect(Etag.of([]) == etag["empty"])
        #expect(Etag.of([0x61]) == "e40c292c")
    }

    @Test func computesTheTileIDVector() throws {
        let vector = try #require(try Vectors.json("box-envelopes.json")["tileId"] as? [String: Any])
        let name = try #require(vector["res"] as? String)
        let res = try #require(HistoryResolution(rawValue: name))
        let at = try #require(vector["tileStartOf"] as? Int64)
        let stride = try #require(vector["stride"] as? Int)
        let id = HistoryGeometry.tileID(res, stride: stride, startMs: HistoryGeometry.tileStart(res, atMs: at))
        #expect(id == vector["expect"] as? String)
    }

    @Test func alignsTilesToTheEpoch() {
        #expect(HistoryGeometry.tileStart(.fiveMinutes, atMs: Self.now) == 1_759_968_000_000)
        #expect(HistoryGeometry.tileStart(.hour, atMs: Self.now) == Self.weekStart)
        #expect(HistoryGeometry.tileStart(.hour, atMs: -1) == -604_800_000)
        #expect(HistoryGeometry.tileID(.hour, stride: 1, startMs: -604_800_000) == "1h/1/-1")
    }

    @Test func servesFourClosedTilesFor48AlignedHoursAtFiveMinutes() {
        let from = HistoryGeometry.tileStart(.fiveMinutes, atMs: Self.now) - 48 * Self.hourMs
        let plan = HistoryGeometry.plan(res: .fiveMinutes, fromMs: from, toMs: from + 48 * Self.hourMs, nowMs: Self.now)
        #expect(plan.res == .fiveMinutes)
        #expect(plan.stride == 1)
        #expect(plan.stepMs == 300_000)
        #expect(plan.tiles.count == 4)
        #expect(plan.totalPoints == 576)
        #expect(plan.tiles.allSatisfy { !$0.partial && $0.points == 144 && $0.stepMs == 300_000 })
        #expect(plan.tiles.map(\.id) == ["5m/1/40736", "5m/1/40737", "5m/1/40738", "5m/1/40739"])
        #expect(plan.gaps.isEmpty)
    }

    @Test func servesFiveTilesWithAPartialLastOneFor48HoursEndingNow() {
        let plan = HistoryGeometry.plan(
            res: .fiveMinutes,
            fromMs: Self.now - 48 * Self.hourMs,
            toMs: Self.now,
            nowMs: Self.now
        )
        #expect(plan.res == .fiveMinutes)
        #expect(plan.tiles.count == 5)
        #expect(plan.totalPoints == 720)
        #expect(plan.tiles.map(\.partial) == [false, false, false, false, true])
    }

    @Test func servesOneOrTwoWeeklyTilesFor48HoursAtOneHour() {
        let inside = HistoryGeometry.plan(
            res: .hour,
            fromMs: Self.weekStart + Self.dayMs,
            toMs: Self.weekStart + 3 * Self.dayMs,
            nowMs: Self.weekStart + 5 * Self.dayMs
        )
        #expect(inside.tiles.count == 1)
        #expect(inside.totalPoints == 168)
        let across = HistoryGeometry.plan(
            res: .hour,
            fromMs: Self.weekStart - Self.dayMs,
            toMs: Self.weekStart + Self.dayMs,
            nowMs: Self.weekStart + 5 * Self.dayMs
        )
        #expect(across.tiles.count == 2)
        #expect(across.totalPoints == 336)
        #expect(across.stride == 1)
    }

    @Test func servesThreeTilesFor24HoursEndingNow() {
        let plan = HistoryGeometry.plan(
            res: .fiveMinutes,
            fromMs: Self.now - Self.dayMs,
            toMs: Self.now,
            nowMs: Self.now
        )
        #expect(plan.tiles.count == 3)
        #expect(plan.totalPoints == 432)
    }

    @Test func clampsSevenDaysAskedAtFiveMinutesToOneHour() {
        let plan = HistoryGeometry.plan(
            res: .fiveMinutes,
            fromMs: Self.now - 7 * Self.dayMs,
            toMs: Self.now,
            nowMs: Self.now
        )
        #expect(plan.res == .hour)
        #expect(plan.stride == 1)
        #expect(plan.tiles.count == 2)
    }

    @Test func clampsThirtyDaysAtFiveMinutesWithACapOf1500ToOneHour() {
        let plan = HistoryGeometry.plan(
            res: .fiveMinutes,
            fromMs: Self.now - 30 * Self.dayMs,
            toMs: Self.now,
            maxPoints: 1500,
            nowMs: Self.now
        )
        #expect(plan.res == .hour)
        #expect(plan.stride == 1)
        #expect((5...6).contains(plan.tiles.count))
    }

    @Test func averagesSevenHoursPerPointForAYearWithACapOf1500() {
        let plan = HistoryGeometry.plan(
            res: .hour,
            fromMs: Self.now - 365 * Self.dayMs,
            toMs: Self.now,
            maxPoints: 1500,
            nowMs: Self.now
        )
        #expect(plan.res == .hour)
        #expect(plan.stride == 7)
        #expect(plan.stepMs == 7 * Self.hourMs)
        #expect((53...54).contains(plan.tiles.count))
        #expect(plan.tiles.allSatisfy { $0.points == 24 && $0.id.hasPrefix("1h/7/") })
        #expect(plan.totalPoints <= 1500)
    }

    @Test func matchesTheBoxTestOfOneDayWithACapOf100() {
        let plan = HistoryGeometry.plan(
            res: .fiveMinutes,
            fromMs: Self.weekStart + Self.dayMs,
            toMs: Self.weekStart + 2 * Self.dayMs,
            maxPoints: 100,
            nowMs: Self.weekStart + 3 * Self.dayMs
        )
        #expect(plan.res == .hour)
        #expect(plan.stride == 2)
        #expect(plan.tiles.map(\.points) == [84])
    }

    @Test func neverServesMoreThan2000PointsWhateverTheCapAsked() {
        let asked = HistoryGeometry.plan(
            res: .fiveMinutes,
            fromMs: Self.now - 10 * Self.dayMs,
            toMs: Self.now,
            maxPoints: 5000,
            nowMs: Self.now
        )
        #expect(asked.res == .hour)
        let defaulted = HistoryGeometry.plan(
            res: .fiveMinutes,
            fromMs: Self.now - Self.dayMs,
            toMs: Self.now,
            maxPoints: 0,
            nowMs: Self.now
        )
        #expect(defaulted.res == .fiveMinutes)
    }

    @Test func clampsTheEndToNow() {
        let plan = HistoryGeometry.plan(
            res: .fiveMinutes,
            fromMs: Self.now - Self.hourMs,
            toMs: Self.now + 30 * Self.dayMs,
            nowMs: Self.now
        )
        #expect(plan.toMs == Self.now)
        #expect(plan.res == .fiveMinutes)
        #expect(plan.tiles.count == 1)
        #expect(plan.tiles[0].partial)
    }

    @Test func reportsTimeBeforeTheRetentionAsAnEvictedGap() {
        let from = Self.now - 800 * Self.dayMs
        let plan = HistoryGeometry.plan(res: .hour, fromMs: from, toMs: Self.now - 700 * Self.dayMs, nowMs: Self.now)
        #expect(plan.fromMs == Self.now - 730 * Self.dayMs)
        #expect(plan.gaps == [HistGap(fromMs: from, toMs: Self.now - 730 * Self.dayMs, reason: .evicted)])
        #expect(plan.tiles.first.map { $0.startMs <= plan.fromMs } == true)
    }

    @Test func survivesAWindowOfExtremeValues() {
        for (from, to) in [(Int64.min, Int64.max), (Int64.max, Int64.min), (Self.now + 1, Self.now + 2)] {
            let plan = HistoryGeometry.plan(res: .fiveMinutes, fromMs: from, toMs: to, nowMs: Self.now)
            #expect(!plan.tiles.isEmpty)
        }
    }

    @Test func packsColumnsAsLittleEndianInt32Blocks() throws {
        let columns: [[Int32]] = [[1, -1], [TileData.missing, 0x0102_0304]]
        let data = TileData.encode(columns)
        #expect(Vectors.hex(data) == "01000000" + "ffffffff" + "00000080" + "04030201")
        #expect(try TileData.decode(data, series: 2, points: 2) == columns)
        #expect(try TileData.decode([], series: 0, points: 0) == [])
    }

    /// Word by word reads the same values as byte by byte, little-endian, for every shape a tile takes (one to
    /// sixteen series, a point to a day of five-minute points) and every bit pattern.
    @Test(arguments: [(1, 1), (4, 144), (4, 72), (16, 288), (3, 7)])
    func decodesEveryValueAsItsFourLittleEndianBytes(_ series: Int, _ points: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let data = (0..<series * points * 4).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let expected = (0..<series).map { column in
            (0..<points).map { point in
                let at = (column * points + point) * 4
                return Int32(bitPattern: data[at..<at + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            }
        }
        #expect(try TileData.decode(data, series: series, points: points) == expected)
        #expect(TileData.encode(expected) == data)
    }

    @Test(arguments: [(2, 3), (3, 2), (1, 3), (-1, -6), (Int.max, 2), (1, 0), (Int.max, 0)])
    func refusesTileDataOfTheWrongSize(_ series: Int, _ points: Int) {
        let data = TileData.encode([[1, 2], [3, 4]])
        #expect(thrownCode { try TileData.decode(data, series: series, points: points) } == .badField)
    }
}
