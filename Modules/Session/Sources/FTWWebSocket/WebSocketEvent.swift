/// What a complete, validated frame means to the connection: a message, a control frame, or nothing yet.
public enum WebSocketEvent: Sendable, Hashable {
    /// A whole text or binary message.
    case message(WebSocketMessage)
    /// The peer asked for a pong carrying this payload.
    case ping([UInt8])
    /// The peer answered a ping with this payload.
    case pong([UInt8])
    /// The peer started or answered the closing handshake; `code` is nil when the close frame carried none.
    case close(code: UInt16?, reason: String)
}
