import FTWBoxProtocol

/// What the trace knows of the box's picture on one connection: each field's meaning, latest value and whether its
/// own reading is live.
///
/// The latest snap gives every field and every source; a delta changes some fields (and, when a source's state
/// changed, the whole source table). Every beat, tick or delta, records each live field, unchanged values carried
/// forward.
///
/// A field with a source is live while its source is: the table says `live` and the reading's age
/// (`uptimeMs − lastOkMs`, measured at the frame that carried the table) is within `staleAfterMs`. Between tables
/// the box's silence is the answer: it resends the table whenever a source's state changes, and never for
/// `lastOkMs` alone (protocol.md §2.5), so an age re-measured against that frozen `lastOkMs` on later frames would
/// expire every healthy source `staleAfterMs` after the table came. A field without a source (the mode, the
/// charger's power) is state the box holds itself: live while the stream is.
struct BoxPicture {
    /// One field of the box's dictionary.
    struct Entry {
        /// Its id.
        let fieldID: Int
        /// Its source, nil for state the box holds.
        let sourceID: String?
        /// Its latest value, nil until the box sends one.
        var value: Int64?
        /// Whether its own reading is live.
        var isLive: Bool
    }

    /// The fields of the latest snap's dictionary, by ascending id; empty until a snap arrived on this connection.
    private(set) var entries: [Entry] = []
    /// The highest field id a truncated delta may have left out of this beat: fields above it are not recorded on
    /// it, because the box drops fields from the highest id up and their change may be missing.
    private(set) var truncatedAbove: Int?
    /// The ring each entry records into, in `entries`' order, once looked up (``looked``): nil for a field the
    /// trace keeps no ring for. Looked up in the trace's table on every beat, the rings cost a hash and a probe per
    /// field per second.
    private var rings: [TraceRing?] = []
    /// Whether each entry's ring was looked up. Apart from `rings`, so a beat copies a reference, not a nested
    /// optional.
    private var looked: [Bool] = []
    /// The trace's ``LiveTrace/ringsReplaced`` when `rings` were looked up.
    private var ringsReplaced = 0

    /// Takes a snap: the whole picture again.
    mutating func apply(_ snap: Snap) {
        entries = snap.dict.keys.sorted().compactMap { id in
            guard let definition = snap.dict[id] else { return nil }
            return Entry(fieldID: id, sourceID: definition.srcId, value: snap.fields[id], isLive: false)
        }
        rings = []
        looked = []
        judge(snap.sources, atUptimeMs: snap.uptimeMs)
        truncatedAbove = nil
    }

    /// Takes a delta: its fields, its source table when present, and where truncation may have cut it.
    mutating func apply(_ delta: Delta, truncated: Bool) {
        for (id, value) in delta.fields {
            guard let index = entries.firstIndex(where: { $0.fieldID == id }) else { continue }
            entries[index].value = value
        }
        if let sources = delta.sources { judge(sources, atUptimeMs: delta.uptimeMs) }
        truncatedAbove = truncated ? (delta.fields.keys.max() ?? Int.min) : nil
    }

    /// Takes a tick: nothing changed.
    mutating func applyTick() {
        truncatedAbove = nil
    }

    /// Forgets every source's liveness: the box rebooted, so the ages in the table are from another boot.
    mutating func forgetSources() {
        for index in entries.indices where entries[index].sourceID != nil { entries[index].isLive = false }
    }

    /// Calls `record` with the ring and value of every entry recorded on this beat.
    ///
    /// - Parameters:
    ///   - replaced: How many times the trace's rings were replaced (a restore): the rings looked up before are
    ///     looked up again.
    ///   - ring: The ring of a field id, nil for one the trace keeps no ring for; asked once per field.
    ///   - record: Records the value in the ring.
    mutating func forEachRecorded(
        replaced: Int,
        ring: (Int) -> TraceRing?,
        _ record: (TraceRing, Int64) -> Void
    ) {
        if looked.count != entries.count || replaced != ringsReplaced {
            rings = Array(repeating: nil, count: entries.count)
            looked = Array(repeating: false, count: entries.count)
            ringsReplaced = replaced
        }
        for index in entries.indices where records(entries[index]) {
            guard let value = entries[index].value else { continue }
            if !looked[index] {
                rings[index] = ring(entries[index].fieldID)
                looked[index] = true
            }
            if let found = rings[index] { record(found, value) }
        }
    }

    /// Whether `entry` is recorded on this beat.
    func records(_ entry: Entry) -> Bool {
        guard entry.isLive, entry.value != nil else { return false }
        guard let truncatedAbove else { return true }
        return entry.fieldID <= truncatedAbove
    }

    private mutating func judge(_ sources: [String: SourceInfo], atUptimeMs uptimeMs: Int64) {
        for index in entries.indices {
            guard let sourceID = entries[index].sourceID else {
                entries[index].isLive = true
                continue
            }
            entries[index].isLive = sources[sourceID].map { Self.isLive($0, atUptimeMs: uptimeMs) } ?? false
        }
    }

    /// A source is live when the box says so and its last good reading is no older than it may be; a negative age
    /// is another boot's reading, whose age is unknown.
    static func isLive(_ source: SourceInfo, atUptimeMs uptimeMs: Int64) -> Bool {
        guard source.state == .live, source.lastOkMs > 0, source.staleAfterMs > 0 else { return false }
        let (age, overflow) = uptimeMs.subtractingReportingOverflow(source.lastOkMs)
        return !overflow && age >= 0 && age <= source.staleAfterMs
    }
}
