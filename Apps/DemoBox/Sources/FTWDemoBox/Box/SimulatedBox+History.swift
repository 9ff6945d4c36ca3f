import FTWBoxProtocol
import FTWClockSeam
import FTWSessionInterface

extension SimulatedBox {
    private static let maxSeries = 16
    private static let maxSeriesName = 64

    /// `hist.query` → one `hist.chunk` per tile, then `hist.end` (§2.8, §4).
    ///
    /// Validation errors are `E_UNKNOWN_OP`; a new query supersedes the running one, which gets
    /// `E_UNAVAILABLE {subsystem: history, reason: superseded}` on its own id. Tiles are read one per
    /// `historyTileTime`; closed tiles whose etag the app already holds are skipped, the tile still filling never is.
    func onHistQuery(_ envelope: Envelope, session number: Int) {
        guard let id = envelope.id, let read = Self.readQuery(envelope.body), let index = index(of: number) else {
            return
        }
        let query = read.query
        let nowMs = wallClock.nowMs
        let shape: CBORMap = ["t": .text(HistQuery.wireType)]
        guard let res = HistoryResolution(rawValue: read.resolution), (1...Self.maxSeries).contains(query.series.count),
            query.fromMs >= 0, query.toMs > query.fromMs, query.fromMs < nowMs
        else { return sendError(.unknownOp, shape, id: id, to: number) }
        guard Set(query.series).count == query.series.count, query.series.allSatisfy(Self.isSeriesName) else {
            return sendError(.unknownOp, ["t": .text(HistQuery.wireType), "field": "series"], id: id, to: number)
        }
        if let running = sessions[index].history {
            sendError(.unavailable, ["subsystem": "history", "reason": "superseded"], id: running.id, to: number)
        }
        historyGeneration += 1
        sessions[index].history = HistoryRun(
            id: id,
            generation: historyGeneration,
            plan: HistoryGeometry.plan(
                res: res,
                fromMs: query.fromMs,
                toMs: query.toMs,
                maxPoints: query.maxPoints,
                nowMs: nowMs
            ),
            series: query.series,
            have: Dictionary(query.have.map { ($0.tileId, $0.etag) }, uniquingKeysWith: { first, _ in first })
        )
        schedule(.historyStep(session: number, generation: historyGeneration), after: configuration.historyTileTime)
    }

    /// Reads the next tile of the running query; after the last one, `hist.end`.
    func historyStep(session number: Int, generation: Int) {
        guard let index = index(of: number), var run = sessions[index].history, run.generation == generation,
            run.next < run.plan.tiles.count
        else { return }
        let tile = run.plan.tiles[run.next]
        run.next += 1
        sessions[index].history = run.next < run.plan.tiles.count ? run : nil
        let nowMs = wallClock.nowMs
        let data = TileData.encode(ledger.columns(series: run.series, tile: tile, nowMs: nowMs))
        let etag = Etag.of(data)
        let partial = tile.endMs > nowMs
        if partial || run.have[tile.id] != etag {
            let chunk = HistChunk(
                tileId: tile.id,
                etag: etag,
                res: tile.res,
                startMs: tile.startMs,
                stepMs: tile.stepMs,
                series: run.series,
                data: data,
                partial: partial
            )
            send(.histChunk(chunk), id: run.id, to: number)
        }
        guard run.next < run.plan.tiles.count else {
            return send(.histEnd(HistEnd(resActual: run.plan.res, gaps: run.plan.gaps)), id: run.id, to: number)
        }
        schedule(.historyStep(session: number, generation: generation), after: configuration.historyTileTime)
    }

    /// The query and its resolution as plain text: the box decodes `res` as a string and judges it afterwards, so
    /// an unknown resolution is an error answer, while a field of the wrong type drops the message.
    private static func readQuery(_ body: CBOR?) -> (query: HistQuery, resolution: String)? {
        guard case .map(var map)? = body, let resolution = map["res"]?.string else { return nil }
        map["res"] = .text(HistoryResolution.fiveMinutes.rawValue)
        guard let query = try? HistQuery(body: .map(map)) else { return nil }
        return (query, resolution)
    }

    /// A series name is 1-64 characters with no control character.
    private static func isSeriesName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= maxSeriesName
            && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
