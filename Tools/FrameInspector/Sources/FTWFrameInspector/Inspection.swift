public import FTWBoxProtocol

/// What `ftw-frame decode` found in some bytes, layer by layer, as far as it got.
public struct Inspection: Sendable {
    /// The frame, when the bytes were a frame and its header read.
    public var frame: Frame?
    /// The envelope's CBOR, when it decoded.
    public var envelope: CBOR?
    /// The envelope's request id, when it had one.
    public var id: UInt32?
    /// The typed message, when the body read as one.
    public var message: Message?
    /// Why decoding stopped, when it did.
    public var error: InspectorError?

    /// Reads `bytes` as a frame when they start with the frame version byte (1), otherwise as a bare envelope (an
    /// envelope is a CBOR map, whose first byte is never 1).
    public init(_ bytes: [UInt8]) {
        var payload = bytes
        var payloadStart = 0
        if bytes.first == Frame.version {
            do {
                let frame = try Frame.decode(bytes)
                self.frame = frame
                payload = frame.payload
                payloadStart = Frame.headerSize
            } catch {
                self.error = InspectorError(refusal: error, layerStart: 0)
                return
            }
        }
        readEnvelope(payload, at: payloadStart)
    }

    private mutating func readEnvelope(_ payload: [UInt8], at payloadStart: Int) {
        do {
            envelope = try CBORDecoder().decode(payload)
            let envelope = try Envelope.decode(payload)
            id = envelope.id
            message = try Message(envelope: envelope)
        } catch {
            self.error = InspectorError(refusal: error, layerStart: payloadStart)
        }
    }
}
