/// Messages to frame bytes and back in one step: the envelope, the lane, the bucket and the padding.
public enum FrameCodec {
    /// The frame bytes carrying `message` on its lane.
    ///
    /// - Parameters:
    ///   - message: The message.
    ///   - id: The request id, or nil for an unsolicited message.
    ///   - controlBucket: The session's lane 0 size (256 or 512); bulk frames pick their own.
    /// - Throws: ``ProtocolError`` `.oversized` when the message fits no bucket of its lane, `.badFrame` for a lane 0
    ///   bucket other than 256 or 512.
    public static func encode(
        _ message: Message,
        id: UInt32?,
        controlBucket: Int = Frame.defaultControlBucket
    ) throws(ProtocolError) -> [UInt8] {
        let payload = message.envelope(id: id).encoded()
        let bucket = message.lane == .control ? controlBucket : nil
        return try Frame(lane: message.lane, payload: payload, bucket: bucket).encoded()
    }

    /// The frame, envelope and message that `frameBytes` carry.
    ///
    /// - Parameters:
    ///   - frameBytes: One decrypted transport message.
    ///   - decoder: The CBOR decoder (and limits) for the payload.
    /// - Throws: ``ProtocolError`` from whichever layer refused the bytes.
    public static func decode(
        _ frameBytes: [UInt8],
        decoder: CBORDecoder = CBORDecoder()
    ) throws(ProtocolError) -> (frame: Frame, envelope: Envelope, message: Message) {
        let frame = try Frame.decode(frameBytes)
        let envelope = try Envelope.decode(frame.payload, decoder: decoder)
        return (frame, envelope, try Message(envelope: envelope))
    }

    /// The header's flags, the request id and the message that `frameBytes` carry: what a session needs of a frame
    /// from the box, at the least cost.
    ///
    /// The 1 Hz `delta` and `tick` in their plain shape are read straight from the bytes (`LiveFrameReader`);
    /// every other payload, and any that reader does not take, is read by ``decode(_:decoder:)`` with the default
    /// limits, so the result and the errors are that function's.
    ///
    /// - Throws: ``ProtocolError`` from whichever layer refused the bytes.
    public static func decodeMessage(
        _ frameBytes: [UInt8]
    ) throws(ProtocolError) -> (flags: FrameFlags, id: UInt32?, message: Message) {
        let header = try Frame.header(of: frameBytes)
        let live = frameBytes.withUnsafeBufferPointer { bytes in
            LiveFrameReader.message(in: UnsafeBufferPointer(rebasing: bytes[header.payload]))
        }
        if let live { return (header.flags, nil, live) }
        let (frame, envelope, message) = try decode(frameBytes)
        return (frame.flags, envelope.id, message)
    }
}
