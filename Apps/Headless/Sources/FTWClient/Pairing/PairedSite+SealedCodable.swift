public import FTWSealInterface

extension PairedSite: SealedCodable {
    /// Longer than any key, secret, code or hint a box hands out.
    static let byteLimit = 1_024
    /// More scopes than any box grants.
    static let scopeLimit = 256
    /// Longer than any relay address or CA file path.
    static let textLimit = 4_096

    /// Writes the record.
    public func encode(into writer: inout BinaryWriter) {
        writer.text(site.rawValue)
        writer.bytes(boxStaticPublicKey)
        writer.bytes(rendezvousSecret)
        writer.text(lanHint)
        writer.bytes(devicePrivateKey)
        writer.bytes(pairingCode)
        writer.optional(role) { $0.text($1) }
        writer.count(scopes.count)
        for scope in scopes { writer.text(scope) }
        writer.optional(relay) { $0.text($1) }
        writer.optional(caFile) { $0.text($1) }
    }

    /// Reads a record back.
    ///
    /// - Throws: ``/FTWSealInterface/SealedContentError`` when a field is cut short or out of range, or the site is not
    ///   a site id.
    public init(from reader: inout BinaryReader) throws(SealedContentError) {
        let siteText = try reader.text(atMost: Self.textLimit)
        guard let site = SiteID(rawValue: siteText) else { throw reader.malformed("'\(siteText)', not a site id,") }
        self.init(
            site: site,
            boxStaticPublicKey: try reader.bytes(atMost: Self.byteLimit),
            rendezvousSecret: try reader.bytes(atMost: Self.byteLimit),
            lanHint: try reader.text(atMost: Self.textLimit),
            devicePrivateKey: try reader.bytes(atMost: Self.byteLimit),
            pairingCode: try reader.bytes(atMost: Self.byteLimit),
            role: try reader.optional { reader throws(SealedContentError) in try reader.text(atMost: Self.textLimit) },
            scopes: try Self.readScopes(&reader),
            relay: try reader.optional { reader throws(SealedContentError) in try reader.text(atMost: Self.textLimit) },
            caFile: try reader.optional { reader throws(SealedContentError) in try reader.text(atMost: Self.textLimit) }
        )
    }

    private static func readScopes(_ reader: inout BinaryReader) throws(SealedContentError) -> [String] {
        let count = try reader.count(atMost: scopeLimit, of: "scopes")
        var scopes: [String] = []
        scopes.reserveCapacity(count)
        for _ in 0..<count { scopes.append(try reader.text(atMost: textLimit)) }
        return scopes
    }
}
