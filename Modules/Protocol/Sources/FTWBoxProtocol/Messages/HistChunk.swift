/// `hist.chunk` (box → app, bulk lane, echoes the id): one tile of column-packed samples (§4.3).
public struct HistChunk: NestedWireBody {
    /// The wire type.
    public static let wireType = "hist.chunk"

    /// The tile's id, `<res>/<stride>/<index>`.
    public var tileId: String
    /// FNV-1a of ``data``, as ``Etag/of(_:)`` computes it.
    public var etag: String
    /// The store the data came from.
    public var res: HistoryResolution
    /// The tile's wall-clock start.
    public var startMs: Int64
    /// The spacing of the points after aggregation.
    public var stepMs: Int64
    /// The column names, in ``data`` order.
    public var series: [String]
    /// Int32 little-endian columns, one block per series; see ``TileData``.
    public var data: [UInt8]
    /// Set on the tile still filling, which the app must never cache.
    public var partial: Bool

    /// Makes a chunk.
    public init(
        tileId: String,
        etag: String,
        res: HistoryResolution,
        startMs: Int64,
        stepMs: Int64,
        series: [String],
        data: [UInt8],
        partial: Bool
    ) {
        self.tileId = tileId
        self.etag = etag
        self.res = res
        self.startMs = startMs
        self.stepMs = stepMs
        self.series = series
        self.data = data
        self.partial = partial
    }

    /// Reads a chunk.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: Self.wireType))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        tileId = try reader.field("tileId").text()
        etag = try reader.field("etag").text()
        res = try reader.field("res").resolution()
        startMs = try reader.field("startMs").milliseconds()
        stepMs = try reader.field("stepMs").milliseconds()
        series = try reader.field("series").texts()
        data = try reader.field("data").bytes()
        partial = try reader.field("partial").bool()
    }

    /// The chunk in the box's key order.
    public var body: CBOR {
        let map: CBORMap = [
            "tileId": .text(tileId), "etag": .text(etag), "res": .text(res.rawValue), "startMs": .int(startMs),
            "stepMs": .int(stepMs), "series": .texts(series), "data": .bytes(data), "partial": .bool(partial),
        ]
        return CBOR.map(map).inDeterministicOrder
    }
}
