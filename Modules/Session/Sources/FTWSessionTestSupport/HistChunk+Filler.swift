public import FTWBoxProtocol

extension HistChunk {
    /// A closed tile of `query`'s series holding `bytes` zero bytes: what a flooding box sends, as many as it likes.
    public static func filler(for query: HistQuery, index: Int, bytes: Int) -> HistChunk {
        HistChunk(
            tileId: "5m/1/\(index)",
            etag: "00000000",
            res: query.res,
            startMs: query.fromMs,
            stepMs: 300_000,
            series: query.series,
            data: [UInt8](repeating: 0, count: bytes),
            partial: false
        )
    }
}
