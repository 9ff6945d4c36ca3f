/// The two ciphers a finished handshake yields, one per direction.
///
/// The initiator (the app) sends with the first split key and receives with the second; the responder (the box)
/// does the opposite, so each side's sender matches the other's receiver.
public struct NoiseSession: Sendable {
    /// Seals what this side sends.
    public var sender: NoiseTransport
    /// Opens what the peer sends.
    public var receiver: NoiseTransport
    /// The final handshake hash, identical on both sides: it identifies the session.
    public let handshakeHash: [UInt8]

    init(sender: NoiseTransport, receiver: NoiseTransport, handshakeHash: [UInt8]) {
        self.sender = sender
        self.receiver = receiver
        self.handshakeHash = handshakeHash
    }

    /// Seals `frame` for the peer; see ``NoiseTransport/seal(_:)``.
    ///
    /// - Throws: `NoiseError` with `.nonceExhausted` when this direction has used every sequence number.
    public mutating func seal(_ frame: [UInt8]) throws(NoiseError) -> [UInt8] {
        try sender.seal(frame)
    }

    /// Opens a wire message if it is from this session's peer, or returns nil; see ``NoiseTransport/openIfMine(_:)``.
    public mutating func openIfMine(_ wire: [UInt8]) -> [UInt8]? {
        receiver.openIfMine(wire)
    }

    /// Opens a wire message from the peer; see ``NoiseTransport/open(_:)``.
    ///
    /// - Throws: `NoiseError` with `.malformed`, `.authenticationFailed` (not this session's) or `.replay`.
    public mutating func open(_ wire: [UInt8]) throws(NoiseError) -> [UInt8] {
        try receiver.open(wire)
    }
}
