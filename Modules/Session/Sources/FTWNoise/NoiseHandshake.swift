/// One side of a `Noise_IK_25519_ChaChaPoly_SHA256` handshake, as a pure state machine: bytes in, bytes out.
///
/// The app is the initiator and already knows the box's static key (from the QR code); the box is the responder
/// and learns the app's static key, its device identity, from message 1. Flow: `<- s`, `...`,
/// `-> e, es, s, ss`, `<- e, ee, se`. Every step works on a copy of the state and keeps it only when it succeeds,
/// so a message that fails (another phone's reply in the same relay room) leaves the handshake as it was.
import FTWBus

public struct NoiseHandshake: Sendable {
    /// Where the handshake stands; each case names the one step that may come next.
    enum Step: Sendable {
        /// Initiator before message 1; holds the responder's static key from the QR code.
        case writeMessage1(remoteStatic: [UInt8])
        /// Initiator after message 1; only `readMessage2` may follow, as often as replies fail.
        case readMessage2
        /// Responder before message 1; only `readMessage1` may follow, as often as messages fail.
        case readMessage1
        /// Responder after message 1; holds the initiator's keys for the reply.
        case writeMessage2(remoteStatic: [UInt8], remoteEphemeral: [UInt8])
        /// Split into a session; every step is refused.
        case finished
    }

    /// The protocol name, 32 bytes, used as the initial hash as is.
    public static let protocolName = Array("Noise_IK_25519_ChaChaPoly_SHA256".utf8)
    /// The size of message 1 without payload: ephemeral (32), encrypted static (48), payload tag (16).
    public static let message1Overhead = 96
    /// The smallest message 2: ephemeral (32) and the tag of an empty payload (16), as the production box sends.
    public static let minimumMessage2Size = 48

    var step: Step
    var symmetric: SymmetricState
    let localStatic: KeyPair
    let localEphemeral: KeyPair

    /// The transcript hash so far; after the last message, the session's identity (same on both sides).
    public var handshakeHash: [UInt8] { symmetric.hash }

    /// The production prologue: `"ftw.session.v1:"` ‖ the box's 32-byte static key, 47 bytes.
    ///
    /// Binding the box's key into the transcript means a handshake aimed at one box cannot complete with another.
    public static func productionPrologue(boxStaticPublicKey: [UInt8]) -> [UInt8] {
        Array("ftw.session.v1:".utf8) + boxStaticPublicKey
    }

    /// The app's side: it knows the box's static key and speaks first.
    ///
    /// - Parameters:
    ///   - staticPrivateKey: the app's X25519 identity key (32 bytes).
    ///   - remoteStaticPublicKey: the box's static public key (32 bytes).
    ///   - prologue: bound into the transcript; ``productionPrologue(boxStaticPublicKey:)`` in production.
    ///   - ephemeralPrivateKey: nil in production (a fresh random key); fixed only to reproduce test vectors.
    /// - Throws: `NoiseError` with `.invalidKey` when a key is not 32 bytes.
    public static func initiator(
        staticPrivateKey: [UInt8],
        remoteStaticPublicKey: [UInt8],
        prologue: [UInt8],
        ephemeralPrivateKey: [UInt8]? = nil
    ) throws(NoiseError) -> NoiseHandshake {
        guard remoteStaticPublicKey.count == 32 else {
            throw NoiseError(.invalidKey, "the responder's static key is 32 bytes, not \(remoteStaticPublicKey.count)")
        }
        return try NoiseHandshake(
            step: .writeMessage1(remoteStatic: remoteStaticPublicKey),
            localStatic: KeyPair(privateKey: staticPrivateKey, role: "static"),
            ephemeralPrivateKey: ephemeralPrivateKey,
            prologue: prologue,
            responderStatic: remoteStaticPublicKey
        )
    }

    /// The box's side: it waits for message 1 from a phone.
    ///
    /// - Parameters:
    ///   - staticPrivateKey: the box's X25519 static key (32 bytes), whose public half is in the QR code.
    ///   - prologue: must equal the initiator's.
    ///   - ephemeralPrivateKey: nil in production (a fresh random key); fixed only to reproduce test vectors.
    /// - Throws: `NoiseError` with `.invalidKey` when a key is not 32 bytes.
    public static func responder(
        staticPrivateKey: [UInt8],
        prologue: [UInt8],
        ephemeralPrivateKey: [UInt8]? = nil
    ) throws(NoiseError) -> NoiseHandshake {
        let localStatic = try KeyPair(privateKey: staticPrivateKey, role: "static")
        return try NoiseHandshake(
            step: .readMessage1,
            localStatic: localStatic,
            ephemeralPrivateKey: ephemeralPrivateKey,
            prologue: prologue,
            responderStatic: localStatic.publicKey
        )
    }

    private init(
        step: Step,
        localStatic: KeyPair,
        ephemeralPrivateKey: [UInt8]?,
        prologue: [UInt8],
        responderStatic: [UInt8]
    ) throws(NoiseError) {
        self.step = step
        self.localStatic = localStatic
        localEphemeral = try KeyPair(privateKey: ephemeralPrivateKey, role: "ephemeral")
        symmetric = SymmetricState(protocolName: Self.protocolName)
        symmetric.mixHash(prologue)
        symmetric.mixHash(responderStatic)
    }

    /// Checks a received message's size and takes its leading ephemeral key into a copy of the transcript, which
    /// the caller keeps only if the rest of the message authenticates.
    func receiveEphemeral(
        _ bytes: [UInt8],
        minimumSize: Int
    ) throws(NoiseError) -> (SymmetricState, remoteEphemeral: [UInt8]) {
        guard bytes.count >= minimumSize else {
            throw NoiseError(.malformed, "this handshake message is at least \(minimumSize) bytes, not \(bytes.count)")
        }
        var symmetric = self.symmetric
        let remoteEphemeral = Array(bytes.prefix(32))
        symmetric.mixHash(remoteEphemeral)
        return (symmetric, remoteEphemeral)
    }

    /// Ends the handshake with `symmetric` and splits it: the initiator sends with the first key.
    mutating func finish(_ symmetric: SymmetricState, asInitiator: Bool) -> NoiseSession {
        self.symmetric = symmetric
        step = .finished
        let (first, second) = symmetric.split()
        let (sending, receiving) = asInitiator ? (first, second) : (second, first)
        return NoiseSession(
            sender: NoiseTransport(key: sending),
            receiver: NoiseTransport(key: receiving),
            handshakeHash: symmetric.hash
        )
    }

    /// The error for a step called out of turn.
    func outOfTurn(_ attempted: String) -> NoiseError {
        NoiseError(.wrongState, "\(attempted) is out of turn for this side of the handshake")
    }
}
