/// Turns validated frames into events: reassembles fragments and checks what the payloads mean.
///
/// The parser judges framing; this judges content: text must be valid UTF-8 once whole (1007), and a close frame
/// must be empty or carry a code allowed on the wire (1002) followed by a UTF-8 reason (1007). Control frames may
/// arrive between the fragments of a message and come out immediately.
public struct WebSocketMessageAssembler: Sendable {
    private var pending: (opcode: WebSocketOpcode, payload: [UInt8])?

    /// Makes an assembler with no message in progress.
    public init() {}

    /// The payload bytes of a fragmented message whose final frame has not arrived.
    public var pendingByteCount: Int { pending?.payload.count ?? 0 }

    /// The event `frame` completes, or nil when it is a fragment of a message still in progress.
    ///
    /// - Throws: ``WebSocketError`` with `closeCode` 1007 for invalid UTF-8 and 1002 for a bad close payload or a
    ///   fragment that does not fit the message in progress.
    public mutating func consume(_ frame: WebSocketFrame) throws(WebSocketError) -> WebSocketEvent? {
        switch frame.opcode {
        case .ping: return .ping(frame.payload)
        case .pong: return .pong(frame.payload)
        case .close: return try Self.closeEvent(frame.payload)
        case .text, .binary:
            guard pending == nil else { throw .interruptedFragments }
            pending = (frame.opcode, frame.payload)
        case .continuation:
            guard pending != nil else { throw .orphanContinuation }
            pending?.payload.append(contentsOf: frame.payload)
        }
        guard frame.isFinal, let (opcode, payload) = pending else { return nil }
        pending = nil
        guard opcode == .text else { return .message(.binary(payload)) }
        guard let text = String(validating: payload, as: UTF8.self) else {
            throw .invalidUTF8("text message is not valid UTF-8")
        }
        return .message(.text(text))
    }

    private static func closeEvent(_ payload: [UInt8]) throws(WebSocketError) -> WebSocketEvent {
        guard !payload.isEmpty else { return .close(code: nil, reason: "") }
        guard payload.count >= 2 else { throw .protocolViolation("close payload of one byte") }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard WebSocketCloseCode.isAllowedOnWire(code) else {
            throw .protocolViolation("close code \(code) is not allowed on the wire")
        }
        guard let reason = String(validating: payload.dropFirst(2), as: UTF8.self) else {
            throw .invalidUTF8("close reason is not valid UTF-8")
        }
        return .close(code: code, reason: reason)
    }
}
