/// The bounds a connection enforces, so no peer can make it buffer without end or wait forever.
///
/// The defaults match the relay: messages up to 65536 bytes, sent as single frames.
public struct WebSocketLimits: Sendable, Hashable {
    /// The largest message accepted, summed over its fragments; larger ones are refused with 1009 before buffering.
    public var maxMessageSize: Int
    /// The largest single frame accepted; larger ones are refused with 1009 before buffering.
    public var maxFrameSize: Int
    /// Outgoing messages longer than this are sent as several frames.
    public var maxOutgoingFrameSize: Int
    /// The largest HTTP head (request or response line plus headers) read during the handshake.
    public var maxHandshakeHeaderSize: Int
    /// How long the opening handshake (connect, request, response) may take.
    public var handshakeTimeout: Duration
    /// How long to wait for the peer's close frame, and then for TCP to end, before dropping the connection.
    public var closeTimeout: Duration
    /// How long one socket write may stall (a peer that stops reading) before the connection fails.
    public var writeTimeout: Duration
    /// How many received messages may wait for ``WebSocketConnection/receive()`` before reading pauses.
    public var maxBufferedMessages: Int
    /// How many pings a peer may send in one ``pingWindow``; one more closes the connection with 1008.
    public var maxPingsPerWindow: Int
    /// The window, on the connection's clock, that ``maxPingsPerWindow`` counts over.
    public var pingWindow: Duration

    /// Makes limits; every value has a default suited to the relay.
    public init(
        maxMessageSize: Int = 65_536,
        maxFrameSize: Int = 65_536,
        maxOutgoingFrameSize: Int = 65_536,
        maxHandshakeHeaderSize: Int = 8_192,
        handshakeTimeout: Duration = .seconds(10),
        closeTimeout: Duration = .seconds(5),
        writeTimeout: Duration = .seconds(10),
        maxBufferedMessages: Int = 64,
        maxPingsPerWindow: Int = 32,
        pingWindow: Duration = .seconds(10)
    ) {
        self.maxMessageSize = maxMessageSize
        self.maxFrameSize = maxFrameSize
        self.maxOutgoingFrameSize = maxOutgoingFrameSize
        self.maxHandshakeHeaderSize = maxHandshakeHeaderSize
        self.handshakeTimeout = handshakeTimeout
        self.closeTimeout = closeTimeout
        self.writeTimeout = writeTimeout
        self.maxBufferedMessages = maxBufferedMessages
        self.maxPingsPerWindow = maxPingsPerWindow
        self.pingWindow = pingWindow
    }
}
