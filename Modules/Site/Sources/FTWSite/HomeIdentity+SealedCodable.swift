public import FTWSealInterface

/// `home-<site>`: the box's id, build, zone, protocol, mode, capabilities, mode catalogue, role and scopes.
extension HomeIdentity: SealedCodable {
    /// More capabilities, modes or scopes than any box advertises.
    static let listLimit = 256

    /// Writes the identity.
    public func encode(into writer: inout BinaryWriter) {
        writer.text(boxID)
        writer.text(build)
        writer.text(timeZoneID)
        writer.signed(Int64(proto))
        writer.text(mode)
        Self.write(caps, to: &writer)
        writer.count(modes.count)
        for entry in modes {
            writer.text(entry.key)
            writer.text(entry.label)
            writer.text(entry.tooltip)
            writer.text(entry.tier)
        }
        writer.text(role)
        Self.write(scopes, to: &writer)
    }

    /// Reads an identity back.
    ///
    /// - Throws: `SealedContentError` when a field is cut short or out of range.
    public init(from reader: inout BinaryReader) throws(SealedContentError) {
        boxID = try reader.text(atMost: 256)
        build = try reader.text(atMost: 256)
        timeZoneID = try reader.text(atMost: 128)
        proto = try reader.int()
        mode = try reader.text(atMost: 64)
        caps = try Self.list(&reader, of: "capabilities")
        let count = try reader.count(atMost: Self.listLimit, of: "modes")
        modes = []
        modes.reserveCapacity(count)
        for _ in 0..<count {
            modes.append(
                HomeMode(
                    key: try reader.text(atMost: 256),
                    label: try reader.text(atMost: 1024),
                    tooltip: try reader.text(atMost: 4096),
                    tier: try reader.text(atMost: 64)
                )
            )
        }
        role = try reader.text(atMost: 64)
        scopes = try Self.list(&reader, of: "scopes")
    }

    private static func write(_ list: [String], to writer: inout BinaryWriter) {
        writer.count(list.count)
        for item in list { writer.text(item) }
    }

    private static func list(_ reader: inout BinaryReader, of what: String) throws(SealedContentError) -> [String] {
        let count = try reader.count(atMost: listLimit, of: what)
        var list: [String] = []
        list.reserveCapacity(count)
        for _ in 0..<count { list.append(try reader.text(atMost: 256)) }
        return list
    }
}
