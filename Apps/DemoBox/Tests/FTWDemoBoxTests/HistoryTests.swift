import FTWBoxProtocol
import FTWDemoBox
import Testing

@Suite struct HistoryTests {
    private static let hour: Int64 = 3_600_000

    private static func query(
        _ series: [String] = Samples.series,
        res: HistoryResolution = .fiveMinutes,
        hours: Int64 = 48,
        endingAt toMs: Int64 = BoxWorld.origin,
        have: [HaveEntry] = []
    ) -> Message {
        .histQuery(HistQuery(series: series, res: res, fromMs: toMs - hours * hour, toMs: toMs, have: have))
    }

    private static func chunks(_ received: [TestPhone.Received]) -> [HistChunk] {
        received.compactMap { frame in
            guard case .histChunk(let chunk)? = frame.message else { return nil }
            return chunk
        }
    }

    @Test func fortyEightHoursComeAsFiveTilesThenTheEnd() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let id = try await phone.ask(Self.query())
            await world.advance(by: .milliseconds(100))
            let answers = await phone.answers(to: id)
            #expect(answers.map(\.type) == Array(repeating: "hist.chunk", count: 5) + ["hist.end"])
            let chunks = Self.chunks(answers)
            #expect(chunks.map(\.partial) == [false, false, false, false, true])
            #expect(chunks.allSatisfy { $0.etag == Etag.of($0.data) && $0.data.count == 4 * 144 * 4 })
            #expect(chunks.allSatisfy { $0.res == .fiveMinutes && $0.stepMs == 300_000 && $0.series == Samples.series })
            #expect(
                chunks.map(\.tileId)
                    == chunks.map { HistoryGeometry.tileID(.fiveMinutes, stride: 1, startMs: $0.startMs) }
            )
            #expect(answers.dropLast().allSatisfy { $0.frame.lane == .bulk && $0.frame.bucket == 4096 })
            #expect(answers.last?.frame.bucket == 1024)
            guard case .histEnd(let end)? = answers.last?.message else { return }
            #expect(end.resActual == .fiveMinutes && end.gaps.isEmpty)
        }
    }

    @Test func theBucketInProgressIsMissingAndEveryFinishedOneIsThere() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let id = try await phone.ask(Self.query())
            await world.advance(by: .milliseconds(100))
            let chunks = Self.chunks(await phone.answers(to: id))
            let open = try #require(chunks.last)
            let columns = try TileData.decode(open.data, series: 4, points: 144)
            let inProgress = Int((BoxWorld.origin - open.startMs) / 300_000)
            for column in columns {
                #expect(column[..<inProgress].allSatisfy { $0 != TileData.missing })
                #expect(column[inProgress...].allSatisfy { $0 == TileData.missing })
            }
            let closed = try TileData.decode(chunks[0].data, series: 4, points: 144)
            #expect(closed.allSatisfy { $0.allSatisfy { $0 != TileData.missing } })
            let (grid, pv, battery, load) = (closed[0], closed[1], closed[2], closed[3])
            #expect(pv.allSatisfy { $0 <= 0 } && load.allSatisfy { $0 > 0 })
            #expect(
                grid.indices.allSatisfy {
                    abs(Int(grid[$0]) - Int(load[$0]) - Int(pv[$0]) - Int(battery[$0])) <= 11_000
                }
            )
        }
    }

    @Test func haveSkipsEveryUnchangedClosedTileButNeverTheOneStillFilling() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let first = try await phone.ask(Self.query())
            await world.advance(by: .milliseconds(100))
            let held = Self.chunks(await phone.answers(to: first))
            let have = held.map { HaveEntry(tileId: $0.tileId, etag: $0.etag) }
            let second = try await phone.ask(Self.query(have: have))
            await world.advance(by: .milliseconds(100))
            let answers = await phone.answers(to: second)
            #expect(answers.map(\.type) == ["hist.chunk", "hist.end"])
            #expect(Self.chunks(answers).map(\.tileId) == [held[4].tileId])
            #expect(Self.chunks(answers).first?.partial == true)
        }
    }

    @Test func aStaleEtagBringsTheTileAgainAndClosedEtagsAreStable() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let first = try await phone.ask(Self.query())
            await world.advance(by: .milliseconds(100))
            let held = Self.chunks(await phone.answers(to: first))
            let wrong = [HaveEntry(tileId: held[0].tileId, etag: "00000000"), HaveEntry(tileId: "5m/1/1", etag: "x")]
            let second = try await phone.ask(Self.query(have: wrong))
            await world.advance(by: .milliseconds(100))
            let again = Self.chunks(await phone.answers(to: second))
            #expect(again.count == 5)
            #expect(again.prefix(4).map(\.etag) == held.prefix(4).map(\.etag))
        }
    }

    @Test func closedTilesReadTheSameOnAnyBoxAtAnyTime() async throws {
        let tile = HistoryGeometry.tileStart(.fiveMinutes, atMs: BoxWorld.origin) - 43_200_000
        var etags: [String] = []
        for origin in [BoxWorld.origin, BoxWorld.origin + 3 * Self.hour] {
            let etag = try await BoxWorld.run(originMs: origin) { world in
                let phone = try await world.streamingPhone()
                let id = try await phone.ask(
                    .histQuery(
                        HistQuery(series: Samples.series, res: .fiveMinutes, fromMs: tile, toMs: tile + 43_200_000)
                    )
                )
                await world.advance(by: .milliseconds(100))
                let chunk = try #require(Self.chunks(await phone.answers(to: id)).first)
                #expect(!chunk.partial)
                return chunk.etag
            }
            etags.append(etag)
        }
        #expect(etags.count == 2 && etags[0] == etags[1])
    }

    @Test func aNewQuerySupersedesTheOneStillRunning() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let first = try await phone.ask(Self.query())
            let second = try await phone.ask(Self.query(hours: 24))
            await world.advance(by: .milliseconds(100))
            let refused = await phone.answers(to: first)
            #expect(refused.map(\.type) == ["error"])
            let error = Samples.error(refused.first)
            #expect(error?.code == .unavailable && error?.retryable == true)
            #expect(error?.args["reason"] == "superseded" && error?.args["subsystem"] == "history")
            #expect(refused.first?.frame.lane == .control)
            #expect(await phone.answers(to: second).last?.type == "hist.end")
        }
    }

    @Test func aSeriesTheBoxDoesNotKeepIsAllMissing() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let id = try await phone.ask(Self.query(["soc_pct", "pv_w"], hours: 12))
            await world.advance(by: .milliseconds(100))
            let chunk = try #require(Self.chunks(await phone.answers(to: id)).first)
            let columns = try TileData.decode(chunk.data, series: 2, points: 144)
            #expect(chunk.series == ["soc_pct", "pv_w"])
            #expect(columns[0].allSatisfy { $0 == TileData.missing })
            #expect(columns[1].contains { $0 != TileData.missing })
        }
    }

    @Test func aWeekAskedAtFiveMinutesIsServedHourly() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let id = try await phone.ask(Self.query(hours: 24 * 7))
            await world.advance(by: .milliseconds(100))
            let answers = await phone.answers(to: id)
            #expect(Self.chunks(answers).allSatisfy { $0.res == .hour && $0.stepMs == Self.hour })
            guard case .histEnd(let end)? = answers.last?.message else {
                Issue.record("no hist.end")
                return
            }
            #expect(end.resActual == .hour)
        }
    }

    @Test func timeBeforeTheRetentionIsReportedAsEvicted() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let day: Int64 = 24 * Self.hour
            let query = HistQuery(
                series: ["grid_w"],
                res: .fiveMinutes,
                fromMs: BoxWorld.origin - 31 * day,
                toMs: BoxWorld.origin - 29 * day
            )
            let id = try await phone.ask(.histQuery(query))
            await world.advance(by: .seconds(1))
            guard case .histEnd(let end)? = await phone.answers(to: id).last?.message else {
                Issue.record("no hist.end")
                return
            }
            #expect(end.resActual == .fiveMinutes)
            #expect(end.gaps.map(\.reason) == [.evicted])
            #expect(end.gaps.first?.toMs == BoxWorld.origin - 30 * day)
        }
    }

    @Test(arguments: [
        Envelope(type: "hist.query", id: 9, body: ["series": ["grid_w"], "res": "15m", "fromMs": 1, "toMs": 2]),
        Envelope(type: "hist.query", id: 9, body: ["series": [], "res": "5m", "fromMs": 1, "toMs": 2]),
        Envelope(
            type: "hist.query",
            id: 9,
            body: ["series": .array(Array(repeating: "a", count: 17)), "res": "5m", "fromMs": 1, "toMs": 2]
        ),
        Envelope(type: "hist.query", id: 9, body: ["series": ["grid_w"], "res": "5m", "fromMs": -1, "toMs": 2]),
        Envelope(type: "hist.query", id: 9, body: ["series": ["grid_w"], "res": "5m", "fromMs": 5, "toMs": 5]),
        Envelope(
            type: "hist.query",
            id: 9,
            body: [
                "series": ["grid_w"], "res": "5m", "fromMs": .int(BoxWorld.origin), "toMs": .int(BoxWorld.origin + 1),
            ]
        ),
    ])
    func aMalformedWindowIsAnUnknownOp(envelope: Envelope) async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            try await phone.send(envelope: envelope)
            await world.advance(by: .milliseconds(100))
            let answers = await phone.answers(to: 9)
            #expect(answers.map(\.type) == ["error"])
            #expect(Samples.error(answers.first)?.code == .unknownOp)
            #expect(Samples.error(answers.first)?.args == ["t": "hist.query"])
            #expect(answers.first?.frame.lane == .control && answers.first?.frame.bucket == 512)
        }
    }

    @Test(arguments: [[""], ["grid_w", "grid_w"], [String(repeating: "x", count: 65)], ["grid\u{7}w"]])
    func aBadSeriesNameIsAnUnknownOpOnTheSeries(series: [String]) async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let id = try await phone.ask(Self.query(series, hours: 1))
            await world.advance(by: .milliseconds(100))
            let error = Samples.error(await phone.answers(to: id).first)
            #expect(error?.code == .unknownOp && error?.args == ["t": "hist.query", "field": "series"])
        }
    }

    @Test func aQueryWithAFloatTimeOrWithoutAnIdIsDroppedSilently() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let float: CBOR = ["series": ["grid_w"], "res": "5m", "fromMs": 1.5e12, "toMs": .int(BoxWorld.origin)]
            try await phone.send(envelope: Envelope(type: "hist.query", id: 5, body: float))
            let plain: CBOR = [
                "series": ["grid_w"], "res": "5m", "fromMs": .int(BoxWorld.origin - Self.hour),
                "toMs": .int(BoxWorld.origin),
            ]
            try await phone.send(envelope: Envelope(type: "hist.query", body: plain))
            await world.advance(by: .milliseconds(500))
            #expect(await phone.received.filter { $0.frame.lane == .bulk }.isEmpty)
            #expect(await world.box.receivedRequests.map(\.type) == ["hist.query", "hist.query"])
        }
    }
}
