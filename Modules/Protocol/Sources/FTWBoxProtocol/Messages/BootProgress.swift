/// What a starting box is busy with, `hello_ok.boot`: a slow start says what it is doing instead of looking hung.
public struct BootProgress: NestedWireBody {
    /// `vacuum`, `migrate` or `drivers`.
    public var phase: String
    /// Percent done.
    public var pct: Int
    /// Estimated ms left; nil (null on the wire) when the box cannot estimate.
    public var etaMs: Int64?

    /// Makes the progress.
    public init(phase: String, pct: Int, etaMs: Int64? = nil) {
        self.phase = phase
        self.pct = pct
        self.etaMs = etaMs
    }

    /// Reads the progress.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: "boot"))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        phase = try reader.field("phase").text()
        pct = try reader.field("pct").int()
        etaMs = try reader.optional("etaMs")?.milliseconds()
    }

    /// `{phase, pct, etaMs}`, `etaMs` null when unknown.
    public var body: CBOR {
        ["phase": .text(phase), "pct": .int(Int64(pct)), "etaMs": .nullable(etaMs)]
    }
}
