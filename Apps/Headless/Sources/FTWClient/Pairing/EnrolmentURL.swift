import FTWBoxProtocol
import FTWSeal
public import FTWSealInterface

/// What a box's QR code says: `https://app.ftw.energy/p#v2.<box_noise_pub>.<pairing_code>.<lan_hint>.<rendezvous_secret>`
/// (§8.2), each segment base64url without padding, all in the fragment so no server ever sees it.
///
/// Parsed strictly: a link from a newer box names its version in the refusal, so a person knows to update the app
/// rather than suspect the code.
public struct EnrolmentURL: Sendable, Hashable {
    /// The only version this app understands.
    public static let version = "v2"
    private static let prefix = "https://app.ftw.energy/p#"
    private static let segmentCount = 5

    /// The box's Noise static public key (32 bytes): the key the handshake pins.
    public var boxStaticPublicKey: [UInt8]
    /// The single-use pairing code (16 bytes), message 1's payload on enrolment.
    public var pairingCode: [UInt8]
    /// Where the box answers on the LAN (at most 64 printable ASCII characters, may be empty).
    public var lanHint: String
    /// The secret the relay room's hourly handle is derived from (32 bytes).
    public var rendezvousSecret: [UInt8]

    /// Reads a link.
    ///
    /// - Throws: ``EnrolmentError`` naming what is wrong: not an enrolment link, an unknown version, the wrong
    ///   number of segments, a segment that is not base64url, or a key, code, secret or hint of the wrong size.
    public init(parsing text: String) throws(EnrolmentError) {
        guard text.hasPrefix(Self.prefix) else {
            throw EnrolmentError(
                .notAnEnrolmentLink,
                "'\(text.prefix(40))' is not an enrolment link: it must start with \(Self.prefix)"
            )
        }
        let segments = text.dropFirst(Self.prefix.count).split(separator: ".", omittingEmptySubsequences: false)
        try Self.checkVersion(String(segments[0]))
        guard segments.count == Self.segmentCount else {
            throw EnrolmentError(
                .segmentCount,
                "the enrolment link has \(segments.count) segments; \(Self.version) has \(Self.segmentCount)"
            )
        }
        boxStaticPublicKey = try Self.bytes(segments[1], "box key", count: 32)
        pairingCode = try Self.bytes(segments[2], "pairing code", count: 16)
        lanHint = try Self.lanHint(segments[3])
        rendezvousSecret = try Self.bytes(segments[4], "rendezvous secret", count: 32)
    }

    /// The site this link pairs with: named by the box's key.
    public var site: SiteID { SiteID.derived(fromBoxKey: boxStaticPublicKey) }

    private static func checkVersion(_ version: String) throws(EnrolmentError) {
        guard version != Self.version else { return }
        if version.first == "v", let number = Int(version.dropFirst()), number > 2 {
            throw EnrolmentError(
                .unknownVersion,
                "this enrolment link is version \(version), and \(version) is newer than this app understands"
                    + " (\(Self.version)): update ftw-headless"
            )
        }
        throw EnrolmentError(
            .unknownVersion,
            "the enrolment link's version '\(version.prefix(16))' is not one this app understands (\(Self.version))"
        )
    }

    private static func bytes(_ segment: Substring, _ name: String, count: Int) throws(EnrolmentError) -> [UInt8] {
        guard let bytes = Base64URL.decode(segment) else {
            throw EnrolmentError(.badSegment, "the enrolment link's \(name) is not base64url without padding")
        }
        guard bytes.count == count else {
            throw EnrolmentError(.badLength, "the enrolment link's \(name) is \(bytes.count) bytes, not \(count)")
        }
        return bytes
    }

    private static func lanHint(_ segment: Substring) throws(EnrolmentError) -> String {
        guard let bytes = Base64URL.decode(segment) else {
            throw EnrolmentError(.badSegment, "the enrolment link's LAN hint is not base64url without padding")
        }
        guard bytes.count <= 64, bytes.allSatisfy({ (0x21...0x7e).contains($0) }) else {
            throw EnrolmentError(.badLANHint, "the enrolment link's LAN hint is not up to 64 printable characters")
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
