/// The name of one home on this phone: 16 lowercase hex digits.
///
/// Every sealed file carries its site in its name and header, so a file copied to another home's name does not
/// open. The id is derived from the box's static key (the Seal target has `SiteID.derived(fromBoxKey:)`), is never
/// sent anywhere, and is validated here so no file name is ever built from unchecked text.
public struct SiteID: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The 16 lowercase hex digits.
    public let rawValue: String

    /// The number of hex digits in a site id (the first 8 bytes of a SHA-256).
    public static let length = 16

    /// Makes a site id from its text, or nil unless it is exactly 16 lowercase hex digits.
    public init?(rawValue: String) {
        let digits = rawValue.utf8
        guard digits.count == Self.length, digits.allSatisfy(Self.isLowercaseHexDigit) else { return nil }
        self.rawValue = rawValue
    }

    /// Decodes a site id from a single string, refusing text that is not a site id.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let site = SiteID(rawValue: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "a site id is 16 lowercase hex digits, not \(text.debugDescription)"
            )
        }
        self = site
    }

    /// Encodes the site id as its text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The 16 hex digits.
    public var description: String { rawValue }

    private static func isLowercaseHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
