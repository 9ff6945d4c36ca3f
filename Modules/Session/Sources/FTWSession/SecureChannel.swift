import FTWBoxProtocol
import FTWBus
import FTWNoise

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
        /// Only inside ``receive(_:)`` and ``seal(_:)``, while they hold the session taken out of `.open`.
        case lent
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

    /// Whether a binary message of `count` bytes has a shape the box's side of a room sends: a message 2
    /// (another phone's, or ours), or a frame padded to its bucket (§1.3). Nothing else comes from a box.
    static func isBoxShaped(_ count: Int) -> Bool {
        count == NoiseHandshake.minimumMessage2Size
            || Frame.controlBuckets.contains(count - NoiseTransport.overhead)
            || Frame.bulkBuckets.contains(count - NoiseTransport.overhead)
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
        guard var session = takeSession() else { return receiveMessage2(bytes) }
        defer { stage = .open(session) }
        guard let frame = session.openIfMine(bytes) else { return .ignored }
        return .frame(frame)
    }

    private mutating func receiveMessage2(_ bytes: [UInt8]) -> Received {
        guard case .handshaking(var handshake) = stage, bytes.count >= NoiseHandshake.minimumMessage2Size,
            let (_, session) = try? handshake.readMessage2(bytes)
        else { return .ignored }
        stage = .open(session)
        return .established
    }

    /// Seals one frame for the box.
    ///
    /// - Throws: `NoiseError` with `.wrongState` before the handshake is done, `.nonceExhausted` when this session has
    ///   used every sequence number (it must end).
    mutating func seal(_ frame: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard var session = takeSession() else {
            throw NoiseError(.wrongState, "a frame cannot be sealed before the handshake is done")
        }
        defer { stage = .open(session) }
        return try session.seal(frame)
    }

    /// The open session, taken out of the stage (which the caller restores), or nil before the handshake is done.
    ///
    /// Working on a copy while the stage still held the session would leave each transport's cipher held twice, and
    /// a transport keys a cipher of its own rather than share one (see `NoiseTransport`): a new libcrypto context
    /// for every frame.
    private mutating func takeSession() -> NoiseSession? {
        guard case .open(let session) = stage else { return nil }
        stage = .lent
        return session
    }
}
