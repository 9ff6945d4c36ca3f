import FTWSealInterface

/// What `snapshot-<site>` holds: the readings and when they were sealed, so a relaunch draws them with their age.
struct SealedSnapshot: SealedCodable {
    /// The readings.
    var snapshot: SiteSnapshot
    /// When they were sealed, on the wall clock (Unix ms).
    var savedAtMs: Int64

    init(snapshot: SiteSnapshot, savedAtMs: Int64) {
        self.snapshot = snapshot
        self.savedAtMs = savedAtMs
    }

    func encode(into writer: inout BinaryWriter) {
        writer.signed(savedAtMs)
        snapshot.encode(into: &writer)
    }

    init(from reader: inout BinaryReader) throws(SealedContentError) {
        savedAtMs = try reader.signed()
        snapshot = try SiteSnapshot(from: &reader)
    }
}
