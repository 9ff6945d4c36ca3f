public import FTWSealInterface

/// `chargers-<site>`: each charger's id, name, power, and flags.
extension ChargerList: SealedCodable {
    /// More chargers than any home has.
    static let chargerLimit = 256

    /// Writes the list.
    public func encode(into writer: inout BinaryWriter) {
        writer.count(chargers.count)
        for charger in chargers {
            writer.text(charger.id)
            writer.text(charger.name)
            writer.optional(charger.powerW) { $0.signed($1) }
            writer.bool(charger.connected)
            writer.bool(charger.charging)
        }
    }

    /// Reads a list back.
    ///
    /// - Throws: `SealedContentError` when a field is cut short or out of range.
    public init(from reader: inout BinaryReader) throws(SealedContentError) {
        let count = try reader.count(atMost: Self.chargerLimit, of: "chargers")
        chargers = []
        chargers.reserveCapacity(count)
        for _ in 0..<count {
            chargers.append(
                Charger(
                    id: try reader.text(atMost: 256),
                    name: try reader.text(atMost: 1024),
                    powerW: try reader.optional { reader throws(SealedContentError) in try reader.signed() },
                    connected: try reader.bool(),
                    charging: try reader.bool()
                )
            )
        }
    }
}
