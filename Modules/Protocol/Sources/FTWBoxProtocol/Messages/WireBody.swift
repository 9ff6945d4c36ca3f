/// A message body (or a part of one) as a typed value: read from a decoded CBOR value, written back as one.
///
/// Reading follows §1.5: unknown keys are ignored, times in milliseconds must be whole integers, numbers the box
/// declares float64 accept any CBOR number, null and absent are kept apart where the box keeps them apart, and a
/// list or map arriving as null (how the box writes an empty Go slice or map) reads as empty. Writing follows
/// the sender: bodies the app sends keep the order of the spec's tables, bodies the box sends are in RFC 8949 core
/// deterministic order, and omitempty fields are left out when empty.
public protocol WireBody: Sendable, Hashable {
    /// Reads the body from a decoded value.
    ///
    /// - Throws: ``ProtocolError`` naming the field at fault: `.wrongType`, `.missingField`, `.badField`,
    ///   `.notWholeMilliseconds`, `.duplicateKey`.
    init(body: CBOR) throws(ProtocolError)

    /// The body as the sender writes it.
    var body: CBOR { get }
}

/// A body that can be read from inside another one, so errors name the whole path (`hello_ok.clock.uptimeMs`).
protocol NestedWireBody: WireBody {
    init(from reader: BodyReader) throws(ProtocolError)
}
