import FTWBoxProtocol

/// A phone the box admits: its Noise static key is its identity, and its role decides what it may do.
public struct EnrolledDevice: Sendable, Hashable, Codable {
    /// The phone's X25519 static public key, learnt from its first handshake.
    public var appStaticKey: [UInt8]
    /// `owner` or `viewer`; re-read on every privileged request, so a demotion bites at once.
    public var role: String
    /// The first 8 characters of the base64url of ``appStaticKey``: how the box's pages name the phone.
    public var deviceId: String
    /// When the phone enrolled, on the wall clock (Unix ms).
    public var enrolledAtMs: Int64

    /// Makes a device record; the id is derived from the key.
    public init(appStaticKey: [UInt8], role: String, enrolledAtMs: Int64) {
        self.appStaticKey = appStaticKey
        self.role = role
        self.deviceId = DeviceID(publicKey: appStaticKey).rawValue
        self.enrolledAtMs = enrolledAtMs
    }
}
