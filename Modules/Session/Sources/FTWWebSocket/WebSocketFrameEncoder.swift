/// Turns frames into wire bytes: the sans-I/O half of the writer.
///
/// It always writes the shortest length encoding and never sets RSV bits, so everything it produces passes
/// ``WebSocketFrameParser``. Masking is decided by the caller's key: clients pass a fresh random key per frame,
/// servers pass none.
public enum WebSocketFrameEncoder {
    /// The wire bytes of `frame`, masked with `maskingKey` (first key byte in the most significant position) if given.
    public static func encode(_ frame: WebSocketFrame, maskingKey: UInt32?) -> [UInt8] {
        let length = frame.payload.count
        var bytes: [UInt8] = []
        bytes.reserveCapacity(14 + length)
        bytes.append((frame.isFinal ? 0x80 : 0) | frame.opcode.rawValue)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        switch length {
        case ..<126:
            bytes.append(maskBit | UInt8(length))
        case ..<65_536:
            bytes.append(maskBit | 126)
            appendBigEndian(UInt64(length), byteCount: 2, to: &bytes)
        default:
            bytes.append(maskBit | 127)
            appendBigEndian(UInt64(length), byteCount: 8, to: &bytes)
        }
        guard let maskingKey else { return bytes + frame.payload }
        appendBigEndian(UInt64(maskingKey), byteCount: 4, to: &bytes)
        var payload = frame.payload
        WebSocketMask.apply(maskingKey, to: &payload)
        return bytes + payload
    }

    /// The frames of `message`, split so that no payload exceeds `maxFrameSize` (at least one byte per frame).
    public static func frames(of message: WebSocketMessage, maxFrameSize: Int) -> [WebSocketFrame] {
        let (opcode, payload): (WebSocketOpcode, [UInt8]) =
            switch message {
            case .text(let text): (.text, Array(text.utf8))
            case .binary(let bytes): (.binary, bytes)
            }
        let size = max(1, maxFrameSize)
        guard payload.count > size else { return [WebSocketFrame(opcode: opcode, payload: payload)] }
        return stride(from: 0, to: payload.count, by: size).map { offset in
            let end = min(offset + size, payload.count)
            return WebSocketFrame(
                opcode: offset == 0 ? opcode : .continuation,
                payload: Array(payload[offset..<end]),
                isFinal: end == payload.count
            )
        }
    }

    private static func appendBigEndian(_ value: UInt64, byteCount: Int, to bytes: inout [UInt8]) {
        for shift in stride(from: (byteCount - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}
