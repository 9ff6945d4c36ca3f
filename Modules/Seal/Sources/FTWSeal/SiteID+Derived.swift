import FTWCrypto
public import FTWSealInterface

extension SiteID {
    /// The site id of the box whose static public key is `boxKey`: the first 8 bytes of its SHA-256, as hex.
    ///
    /// The reference app names a home this way, so a phone's cached files keep their names across the port; it lives
    /// here rather than in `SealInterface` because that target has no cryptography.
    public static func derived(fromBoxKey boxKey: [UInt8]) -> SiteID {
        let hex = SHA256.hash(boxKey).prefix(8).lowercaseHex
        guard let site = SiteID(rawValue: hex) else { preconditionFailure("16 lowercase hex digits are a site id") }
        return site
    }
}
