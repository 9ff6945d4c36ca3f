public import FTWBoxProtocol

/// A message written as JSON, `{"t": type, "id": n, "b": body}`, read the way the box reads an envelope.
public enum MessageJSON {
    /// The typed message and request id that `text` describes.
    ///
    /// - Throws: ``InspectorError``: `.badJSON`, `.badValue` (see ``CBORJSON``), or `.refused` when the envelope or
    ///   body is not a message this build knows (an unknown type is refused too: its body could not be written).
    public static func message(from text: String) throws(InspectorError) -> (message: Message, id: UInt32?) {
        let value = try CBORJSON.cbor(try JSONParser.parse(text))
        guard case .map(let map) = value else { throw InspectorError(.badValue, "a message is a JSON object") }
        if let id = map["id"], id.uint32 == nil {
            throw InspectorError(.badValue, "id must be an integer 0 ... 4294967295, not \(id.diagnostic)")
        }
        do throws(ProtocolError) {
            let envelope = try Envelope.decode(CBOREncoder().encode(value))
            let message = try Message(envelope: envelope)
            if case .unknown(let type) = message {
                throw ProtocolError(.badEnvelope, "\(type) is not a message type this build knows", field: "t")
            }
            return (message, envelope.id)
        } catch {
            throw InspectorError(refusal: error, layerStart: 0)
        }
    }
}
