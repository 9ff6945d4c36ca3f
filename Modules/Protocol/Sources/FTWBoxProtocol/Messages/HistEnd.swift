/// `hist.end` (box → app, bulk lane, echoes the id): the last message of a history answer (§4.4).
public struct HistEnd: NestedWireBody {
    /// The wire type.
    public static let wireType = "hist.end"

    /// The resolution actually served.
    public var resActual: HistoryResolution
    /// Ranges the box cannot serve.
    public var gaps: [HistGap]

    /// Makes the end.
    public init(resActual: HistoryResolution, gaps: [HistGap] = []) {
        self.resActual = resActual
        self.gaps = gaps
    }

    /// Reads the end.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: Self.wireType))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        resActual = try reader.field("resActual").resolution()
        gaps = try reader.optional("gaps")?.list() ?? []
    }

    /// `{gaps, resActual}` in the box's key order; an empty list is written, not left out.
    public var body: CBOR {
        CBOR.map(["resActual": .text(resActual.rawValue), "gaps": .list(gaps)]).inDeterministicOrder
    }
}
