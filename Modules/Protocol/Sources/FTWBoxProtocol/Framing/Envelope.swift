/// The CBOR map every frame carries: the message type `t`, an optional request id `id`, an optional body `b`
/// (§1.4).
public struct Envelope: Sendable, Hashable {
    /// The message type, such as `"tick"` or `"hist.query"`.
    public var type: String
    /// The request id a reply echoes; nil for unsolicited messages.
    public var id: UInt32?
    /// The body, normally a map; nil when the message has none (`plan.get`).
    public var body: CBOR?

    /// Makes an envelope.
    public init(type: String, id: UInt32? = nil, body: CBOR? = nil) {
        self.type = type
        self.id = id
        self.body = body
    }

    /// The envelope's bytes: keys `t`, `id`, `b` in that order, as the box and both reference clients write them,
    /// and the body's maps in the order they hold (box bodies arrive here already sorted).
    public func encoded() -> [UInt8] {
        var map: CBORMap = ["t": .text(type)]
        if let id { map["id"] = .unsigned(UInt64(id)) }
        if let body { map["b"] = body }
        return CBOREncoder(keyOrder: .asGiven).encode(.map(map))
    }

    /// Reads an envelope as the box does: keys in any order, unknown keys ignored, `t` required, an `id` that is
    /// not a u32 dropped rather than fatal.
    ///
    /// - Parameters:
    ///   - payload: A frame's payload.
    ///   - decoder: The CBOR decoder (and limits) to read it with.
    /// - Throws: ``ProtocolError``: the CBOR decoder's errors, `.badEnvelope` when the value is not a map,
    ///   `.missingField` without `t`, `.wrongType` when `t` is not text.
    public static func decode(
        _ payload: [UInt8],
        decoder: CBORDecoder = CBORDecoder()
    ) throws(ProtocolError) -> Envelope {
        let value = try decoder.decode(payload)
        guard case .map(let map) = value else {
            throw ProtocolError(.badEnvelope, "an envelope must be a map, found \(value.typeName)")
        }
        guard let type = map["t"] else {
            throw ProtocolError(.missingField, "the envelope has no type `t`", field: "t")
        }
        guard case .text(let text) = type else {
            throw ProtocolError(.wrongType, "the envelope's `t` must be text, found \(type.typeName)", field: "t")
        }
        return Envelope(type: text, id: map["id"]?.uint32, body: map["b"])
    }
}
