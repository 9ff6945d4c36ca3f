/// `hist.query` (app → box, bulk lane, with an id): stored series over a wall-clock window, answered by one
/// `hist.chunk` per tile and a `hist.end` (§2.8, §4).
public struct HistQuery: NestedWireBody {
    /// The wire type.
    public static let wireType = "hist.query"

    /// The series names, such as `grid_w`; 1 to 16 of them.
    public var series: [String]
    /// The resolution asked for; the box may serve a coarser one.
    public var res: HistoryResolution
    /// Window start, wall clock.
    public var fromMs: Int64
    /// Window end, wall clock (exclusive).
    public var toMs: Int64
    /// Tiles the app already holds; left out when empty.
    public var have: [HaveEntry]
    /// The most points the answer may hold; nil leaves the box's default (2000).
    public var maxPoints: Int?

    /// Makes a query.
    public init(
        series: [String],
        res: HistoryResolution,
        fromMs: Int64,
        toMs: Int64,
        have: [HaveEntry] = [],
        maxPoints: Int? = nil
    ) {
        self.series = series
        self.res = res
        self.fromMs = fromMs
        self.toMs = toMs
        self.have = have
        self.maxPoints = maxPoints
    }

    /// Reads a query.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: Self.wireType))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        series = try reader.field("series").texts()
        res = try reader.field("res").resolution()
        fromMs = try reader.field("fromMs").milliseconds()
        toMs = try reader.field("toMs").milliseconds()
        have = try reader.optional("have")?.list() ?? []
        maxPoints = try reader.optional("maxPoints")?.int()
    }

    /// `{series, res, fromMs, toMs, have?, maxPoints?}`, in that order.
    public var body: CBOR {
        var map: CBORMap = [
            "series": .texts(series), "res": .text(res.rawValue), "fromMs": .int(fromMs), "toMs": .int(toMs),
        ]
        if !have.isEmpty { map["have"] = .list(have) }
        if let maxPoints { map["maxPoints"] = .int(Int64(maxPoints)) }
        return .map(map)
    }
}
