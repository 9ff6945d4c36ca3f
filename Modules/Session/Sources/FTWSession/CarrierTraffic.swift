/// What the session's carriers moved, counted at the carrier: binary messages (Noise messages) and their bytes,
/// each way, since the session was made.
///
/// It is how the cost of a return is measured: the handshake, hello, hello_ok, snap and the first ticks, in bytes on
/// the wire (WebSocket framing not included).
public struct CarrierTraffic: Sendable, Hashable {
    /// Messages the app sent.
    public var sentMessages = 0
    /// Their bytes.
    public var sentBytes = 0
    /// Messages that arrived (including other phones' replies in the same room).
    public var receivedMessages = 0
    /// Their bytes.
    public var receivedBytes = 0

    /// No traffic yet.
    public init() {}

    /// Everything, both ways, in bytes.
    public var totalBytes: Int { sentBytes + receivedBytes }
}
