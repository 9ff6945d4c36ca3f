public import FTWSealInterface

/// The readings in `snapshot-<site>`: uptime, control revision, the dictionary, the fields, the sources and the
/// sources blocking dispatch, each keyed table in key order so the same snapshot always gives the same bytes.
extension SiteSnapshot: SealedCodable {
    /// More fields, sources or entries than any box reports.
    static let tableLimit = 4096

    /// Writes the snapshot.
    public func encode(into writer: inout BinaryWriter) {
        writer.signed(uptimeMs)
        writer.varint(controlRev)
        writer.signed(takenAtMs)
        writer.count(dict.count)
        for (id, field) in dict.sorted(by: { $0.key < $1.key }) {
            writer.signed(Int64(id))
            writer.text(field.name)
            writer.optional(field.unit) { $0.text($1) }
            writer.optional(field.srcId) { $0.text($1) }
        }
        writer.count(fields.count)
        for (id, value) in fields.sorted(by: { $0.key < $1.key }) {
            writer.signed(Int64(id))
            writer.signed(value)
        }
        writer.count(sources.count)
        for (id, source) in sources.sorted(by: { $0.key < $1.key }) {
            writer.text(id)
            writer.text(source.kind)
            writer.text(source.name)
            writer.signed(source.lastOkMs)
            writer.signed(source.staleAfterMs)
            writer.text(source.state)
        }
        writer.count(dispatchBlockedBy.count)
        for id in dispatchBlockedBy { writer.text(id) }
    }

    /// Reads a snapshot back.
    ///
    /// - Throws: `SealedContentError` when a field is cut short or out of range, or a key comes twice.
    public init(from reader: inout BinaryReader) throws(SealedContentError) {
        uptimeMs = try reader.signed()
        controlRev = try reader.varint()
        takenAtMs = try reader.signed()
        // Each table is made at its full size at once (its count is bounded by its limit and the bytes left), not
        // grown a few times over.
        let entries = try reader.count(atMost: Self.tableLimit, of: "dictionary entries")
        dict = Dictionary(minimumCapacity: entries)
        for _ in 0..<entries {
            let id = try reader.int()
            let field = SnapshotField(
                name: try reader.text(atMost: 256),
                unit: try reader.optional { reader throws(SealedContentError) in try reader.text(atMost: 64) },
                srcId: try reader.optional { reader throws(SealedContentError) in try reader.text(atMost: 256) }
            )
            guard dict.updateValue(field, forKey: id) == nil else { throw reader.malformed("field \(id) named twice") }
        }
        let values = try reader.count(atMost: Self.tableLimit, of: "fields")
        fields = Dictionary(minimumCapacity: values)
        for _ in 0..<values {
            let id = try reader.int()
            guard fields.updateValue(try reader.signed(), forKey: id) == nil else {
                throw reader.malformed("field \(id) twice")
            }
        }
        let sourceCount = try reader.count(atMost: Self.tableLimit, of: "sources")
        sources = Dictionary(minimumCapacity: sourceCount)
        for _ in 0..<sourceCount {
            let id = try reader.text(atMost: 256)
            let source = SnapshotSource(
                kind: try reader.text(atMost: 256),
                name: try reader.text(atMost: 1024),
                lastOkMs: try reader.signed(),
                staleAfterMs: try reader.signed(),
                state: try reader.text(atMost: 64)
            )
            guard sources.updateValue(source, forKey: id) == nil else { throw reader.malformed("source \(id) twice") }
        }
        let blocked = try reader.count(atMost: Self.tableLimit, of: "blocking sources")
        dispatchBlockedBy = []
        dispatchBlockedBy.reserveCapacity(blocked)
        for _ in 0..<blocked { dispatchBlockedBy.append(try reader.text(atMost: 256)) }
    }
}
