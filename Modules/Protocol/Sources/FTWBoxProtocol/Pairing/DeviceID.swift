/// How the box names a phone on its pages and in its device list: the first 8 characters of the base64url of the
/// phone's static public key (§8.2), so a person can tell which device to revoke.
public struct DeviceID: Sendable, Hashable, CustomStringConvertible {
    /// The 8 characters.
    public let rawValue: String

    /// The id of the phone whose static public key is `publicKey`.
    public init(publicKey: [UInt8]) {
        rawValue = String(Base64URL.encode(publicKey).prefix(8))
    }

    /// The 8 characters.
    public var description: String { rawValue }
}
