import FTWNoise

/// Who the app is to the box and which box it expects: the keys and the payload of the Noise handshake.
///
/// The app's static key is its device identity (the box records it at enrolment); the box's static key and the
/// pairing code come from the QR code. The payload is the pairing code only until the box has accepted us once:
/// the code is single use, and a known device reconnects with an empty payload.
///
/// The box enrols the key when it takes message 1 (protocol.md §8.1), before its answer is on its way, so a code
/// that may have reached the box is never offered again before a greeting as a known device: a box that spent the
/// code for this phone answers the greeting, and one that never took it refuses the greeting in silence, which costs
/// nothing, while every offer of a spent code counts as a wrong guess against the box's live codes.
public struct SessionIdentity: Sendable, Hashable {
    /// The app's X25519 static private key (32 bytes): its device identity.
    public var appStaticPrivateKey: [UInt8]
    /// The box's X25519 static public key (32 bytes), from the QR code.
    public var boxStaticPublicKey: [UInt8]
    /// Bound into the handshake transcript; the production prologue names the box's key.
    public var prologue: [UInt8]
    /// Message 1's payload: the 16-byte pairing code on enrolment (or a 5-byte spoken box code), empty once known.
    public var payload: [UInt8]
    /// Whether the code may already have reached the box (an enrolment left pending by an earlier process: its
    /// record is sealed just before the code first leaves), so the first handshake greets as a known device and
    /// offers the code only once the box has refused that greeting.
    public var codeMayBeSpent: Bool

    /// Makes an identity.
    ///
    /// - Parameters:
    ///   - appStaticPrivateKey: The app's static private key.
    ///   - boxStaticPublicKey: The box's static public key.
    ///   - prologue: nil for the production prologue, `"ftw.session.v1:"` ‖ the box's key.
    ///   - payload: The pairing code on enrolment; empty for a device the box already knows.
    ///   - codeMayBeSpent: Whether the code may have reached the box before (greet first).
    public init(
        appStaticPrivateKey: [UInt8],
        boxStaticPublicKey: [UInt8],
        prologue: [UInt8]? = nil,
        payload: [UInt8] = [],
        codeMayBeSpent: Bool = false
    ) {
        self.appStaticPrivateKey = appStaticPrivateKey
        self.boxStaticPublicKey = boxStaticPublicKey
        self.prologue = prologue ?? NoiseHandshake.productionPrologue(boxStaticPublicKey: boxStaticPublicKey)
        self.payload = payload
        self.codeMayBeSpent = codeMayBeSpent
    }

    /// Whether the box already knows this device (the handshake carries no code).
    public var isKnownDevice: Bool { payload.isEmpty }
}
