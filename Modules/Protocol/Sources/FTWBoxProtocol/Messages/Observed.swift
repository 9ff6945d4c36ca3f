/// A value read back after a command, `cmd.result.observed`: what the box now holds, never an echo of the request.
public struct Observed: NestedWireBody {
    /// The value read back; float64 on the box, so it may arrive in any float width (`f93c00` for 1).
    public var value: Double
    /// Where it was read; `core` for state the box holds itself.
    public var src: String
    /// Box uptime of the read.
    public var uptimeMs: Int64

    /// Makes a read-back.
    public init(value: Double, src: String, uptimeMs: Int64) {
        self.value = value
        self.src = src
        self.uptimeMs = uptimeMs
    }

    /// Reads a read-back.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: "observed"))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        value = try reader.field("value").number()
        src = try reader.field("src").text()
        uptimeMs = try reader.field("uptimeMs").milliseconds()
    }

    /// `{value, src, uptimeMs}`, `value` as a float in its shortest exact width, as the box writes float64.
    public var body: CBOR {
        ["value": .float(value), "src": .text(src), "uptimeMs": .int(uptimeMs)]
    }
}
