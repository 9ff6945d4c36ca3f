/// The frame opcodes RFC 6455 §5.2 defines; any other value on the wire is a protocol error.
public enum WebSocketOpcode: UInt8, Sendable, Hashable {
    /// Carries the next fragment of a text or binary message.
    case continuation = 0x0
    /// Starts a UTF-8 text message.
    case text = 0x1
    /// Starts a binary message.
    case binary = 0x2
    /// Starts the closing handshake.
    case close = 0x8
    /// Asks the peer for a pong.
    case ping = 0x9
    /// Answers a ping (or is a unidirectional heartbeat).
    case pong = 0xA

    /// Whether this is a control opcode: at most 125 bytes of payload and never fragmented.
    public var isControl: Bool { rawValue & 0x8 != 0 }
}
