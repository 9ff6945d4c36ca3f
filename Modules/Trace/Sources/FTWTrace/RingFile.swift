import FTWSealInterface

/// The contents of the sealed `ring-<site>` file: every ring's points in a compact, versioned binary layout.
///
/// ```
/// u8      version = 1
/// varint  field count F
/// F × field:
///   zigzag  field id
///   varint  point count N
///   if N > 0:
///     varint  segment count S           a segment: consecutive points of one source, a run start only first
///     S × (varint length, u8 flags)     flags: bit 0 the segment's first point starts a run, bit 1 cloud
///     zigzag  first time (Unix ms)
///     zigzag  first value
///     (N − 1) × (zigzag time delta-of-delta, zigzag value delta)
/// ```
/// At 1 Hz the time step is steady, so its delta-of-delta is 0 and takes one byte; a home's power readings move
/// by tens to hundreds of watts a second, one or two bytes. `seen` is not stored: every point read back is unseen.
/// README.md has the sizes.
package enum RingFile {
    /// The layout version this build writes and reads, with every earlier one a release wrote (the golden corpus in
    /// Tests/EndToEndTests/Fixtures holds one of each). A newer one is kept on disk for the build that wrote it.
    package static let version: UInt8 = 1

    /// One field's ring, as the file holds it.
    struct Field {
        /// The field id.
        let fieldID: Int
        /// Its ring.
        let ring: TraceRing
    }

    static let startsRunBit: UInt8 = 1 << 0
    static let cloudBit: UInt8 = 1 << 1

    /// The file's contents for `fields`.
    static func encode(_ fields: [Field]) -> [UInt8] {
        let points = fields.reduce(0) { $0 + $1.ring.count }
        var writer = BinaryWriter(reservingCapacity: 16 + fields.count * 24 + points * 4)
        writer.byte(version)
        writer.count(fields.count)
        for field in fields {
            writer.signed(Int64(field.fieldID))
            writer.count(field.ring.count)
            guard field.ring.count > 0 else { continue }
            field.ring.writeContents(to: &writer)
        }
        return writer.bytes
    }
}
