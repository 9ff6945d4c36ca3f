/// A complete application message, reassembled from its fragments.
public enum WebSocketMessage: Sendable, Hashable {
    /// A text message; guaranteed to have been valid UTF-8 on the wire.
    case text(String)
    /// A binary message.
    case binary([UInt8])
}
