/// A range the box knows it cannot serve, `hist.end.gaps[]`, so the app can say why instead of drawing a hole.
public struct HistGap: NestedWireBody {
    /// Range start, wall clock.
    public var fromMs: Int64
    /// Range end, wall clock.
    public var toMs: Int64
    /// Why; the box only sends ``GapReason/evicted``.
    public var reason: GapReason

    /// Makes a gap.
    public init(fromMs: Int64, toMs: Int64, reason: GapReason) {
        self.fromMs = fromMs
        self.toMs = toMs
        self.reason = reason
    }

    /// Reads a gap.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: "gaps"))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        fromMs = try reader.field("fromMs").milliseconds()
        toMs = try reader.field("toMs").milliseconds()
        reason = try reader.field("reason").name()
    }

    /// `{fromMs, toMs, reason}`.
    public var body: CBOR {
        ["fromMs": .int(fromMs), "toMs": .int(toMs), "reason": .text(reason.rawValue)]
    }
}
