import FTWBoxProtocol
import FTWFuzzSupport

/// libFuzzer's entry: one input, read as a decrypted transport message.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrame(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FrameTarget.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// The frame header, the envelope and the message, layer by layer, as the session reads what the box sends.
///
/// Whatever a layer accepts must come back out of its encoder unchanged: the header and payload bytes of a frame,
/// the envelope's type, id and body, and the typed message (which `MessageRoundTrip` checks).
enum FrameTarget {
    static func run(_ bytes: [UInt8]) {
        guard let frame = try? Frame.decode(bytes) else { return }
        checkFrame(frame, from: bytes)
        let general = try? FrameCodec.decode(bytes)
        checkDirectRead(bytes, against: general)
        // The general read's envelope when it went that far; decoded again only when the message was refused.
        guard let envelope = general?.envelope ?? (try? Envelope.decode(frame.payload)) else { return }
        let reread = try? Envelope.decode(envelope.encoded())
        FuzzCheck.require(reread == envelope, "envelope \(envelope.type) does not survive its encoder")
        guard let message = general?.message ?? (try? Message(envelope: envelope)) else { return }
        MessageRoundTrip.check(message, id: envelope.id)
    }

    /// The session's read (`decodeMessage`, which takes the 1 Hz messages straight from the bytes) gives what the
    /// general decode (`general`) gives: the same flags, id and message (a NaN compared by its bytes), or a refusal
    /// from both.
    static func checkDirectRead(
        _ bytes: [UInt8],
        against general: (frame: Frame, envelope: Envelope, message: Message)?
    ) {
        let direct = try? FrameCodec.decodeMessage(bytes)
        FuzzCheck.require(
            direct?.flags == general?.frame.flags && direct?.id == general?.envelope.id
                && MessageRoundTrip.same(direct?.message, general?.message),
            "decodeMessage and decode read the same frame differently"
        )
    }

    /// A frame that decodes and fits its lane's buckets encodes to the same header (the reserved byte zeroed) and
    /// payload; padding may differ, as the decoder ignores it.
    static func checkFrame(_ frame: Frame, from bytes: [UInt8]) {
        guard let encoded = try? frame.encoded() else { return }
        let payloadEnd = Frame.headerSize + frame.payload.count
        var expected = Array(bytes[..<payloadEnd])
        expected[3] = 0
        FuzzCheck.require(Array(encoded[..<payloadEnd]) == expected, "a decoded frame encodes to other bytes")
        if frame.lane == .control { FuzzCheck.require(encoded.count == bytes.count, "a lane 0 frame changed size") }
    }
}
