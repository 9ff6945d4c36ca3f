/// One frame as it travels on the wire, with its payload already unmasked.
///
/// The parser hands these out and the encoder takes them, so the codec can be exercised without sockets.
public struct WebSocketFrame: Sendable, Hashable {
    /// Whether this is the last frame of its message (FIN).
    public var isFinal: Bool
    /// What the frame carries.
    public var opcode: WebSocketOpcode
    /// The application data, unmasked.
    public var payload: [UInt8]

    /// Makes a frame; `isFinal` defaults to true because most messages are one frame.
    public init(opcode: WebSocketOpcode, payload: [UInt8], isFinal: Bool = true) {
        self.isFinal = isFinal
        self.opcode = opcode
        self.payload = payload
    }
}
