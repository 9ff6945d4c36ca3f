import Noise

/// Noise IK over one carrier, as a value: the initiator's handshake, then the transport.
///
/// A relay room hands every phone every message the box sends, so nothing that fails to open is an error here: a
/// message 2 that is not ours is skipped and the handshake waits for the next, and a transport message that does not
/// authenticate is "not mine". The channel never throws on input; it says what the bytes were.
struct SecureChannel: Sendable {
    /// What a received binary message turned out to be.
    enum Received: Sendable {
        /// Our message 2: the handshake is done and the box's payload (empty in production) arrived.
        case established
        /// One decrypted frame.
        case frame([UInt8])
        /// Not ours (another phone's reply or frame, a replay, a runt): dropped without a word.
        case ignored
    }

    private enum Stage: Sendable {
        case handshaking(NoiseHandshake)
        case open(NoiseSession)
    }

    private var stage: Stage

    /// Starts a handshake as the app.
    ///
    /// - Returns: The channel, waiting for message 2, and message 1 to send.
    /// - Throws: `NoiseError` when a key is malformed.
    static func start(_ identity: SessionIdentity) throws(NoiseError) -> (SecureChannel, message1: [UInt8]) {
        var handshake = try NoiseHandshake.initiator(
            staticPrivateKey: identity.appStaticPrivateKey,
            remoteStaticPublicKey: identity.boxStaticPublicKey,
            prologue: identity.prologue
        )
        let message1 = try handshake.writeMessage1(payload: identity.payload)
        return (SecureChannel(stage: .handshaking(handshake)), message1)
    }

    private init(stage: Stage) {
        self.stage = stage
    }

    /// Whether the handshake is done.
    var isOpen: Bool {
        if case .open = stage { return true }
        return false
    }

    /// Takes one binary message from the carrier.
    ///
    /// While handshaking, only messages of at least 48 bytes are offered to message 2, and one that fails leaves the
    /// handshake as it was.
    mutating func receive(_ bytes: [UInt8]) -> Received {
        switch stage {
        case .handshaking(var handshake):
            guard bytes.count >= NoiseHandshake.minimumMessage2Size,
                let (_, session) = try? handshake.readMessage2(bytes)
            else { return .ignored }
            stage = .open(session)
            return .established
        case .open(var session):
            guard let frame = try? session.open(bytes) else { return .ignored }
            stage = .open(session)
            return .frame(frame)
        }
    }

    /// Seals one frame for the box.
    ///
    /// - Throws: `NoiseError` with `.wrongState` before the handshake is done, `.nonceExhausted` when this session has
    ///   used every sequence number (it must end).
    mutating func seal(_ frame: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard case .open(var session) = stage else {
            throw NoiseError(.wrongState, "a frame cannot be sealed before the handshake is done")
        }
        let sealed = try session.seal(frame)
        stage = .open(session)
        return sealed
    }
}
