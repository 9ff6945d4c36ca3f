import FTWBus

extension RingFile {
    /// What a decoded ring must fit: the receiving trace's configuration.
    struct Limits {
        /// Points a ring holds at most.
        let capacity: Int
        /// The ring's window.
        let windowMs: Int64
        /// Rings a trace keeps at most.
        let maxFields: Int
    }

    /// Reads a file's contents back into fresh rings; every point comes back unseen, and every run gets a fresh id
    /// from `runs`.
    ///
    /// - Throws: `TraceError`: `.truncated`, `.unknownVersion`, `.malformed` (a bad varint, an unknown flag bit,
    ///   segments that do not add up, times that do not move forward or leave the valid range, a field twice,
    ///   bytes left over) or `.tooLarge` (more fields or points than `limits` allow). Nothing is kept then.
    static func decode(_ bytes: [UInt8], limits: Limits, runs: inout UInt32) throws(TraceError) -> [Field] {
        var reader = RingFileReader(bytes)
        let version = try reader.byte()
        guard version == Self.version else {
            throw TraceError(.unknownVersion, "ring file version \(version), this build reads \(Self.version)")
        }
        let fieldCount = try reader.count(atMost: limits.maxFields, of: "fields")
        var fields: [Field] = []
        for _ in 0..<fieldCount {
            let field = try decodeField(&reader, limits: limits, runs: &runs)
            guard !fields.contains(where: { $0.fieldID == field.fieldID }) else {
                throw reader.malformed("field \(field.fieldID) twice")
            }
            fields.append(field)
        }
        guard reader.isAtEnd else { throw reader.malformed("bytes left over") }
        return fields
    }

    private static func decodeField(
        _ reader: inout RingFileReader,
        limits: Limits,
        runs: inout UInt32
    ) throws(TraceError) -> Field {
        let id = try reader.signed()
        guard let fieldID = Int32(exactly: id) else { throw reader.malformed("field id \(id)") }
        let ring = TraceRing(capacity: limits.capacity, windowMs: limits.windowMs)
        let count = try reader.count(atMost: limits.capacity, of: "points")
        guard count > 0 else { return Field(fieldID: Int(fieldID), ring: ring) }
        let segments = try decodeSegments(&reader, pointCount: count)
        try decodePoints(&reader, segments: segments, into: ring, runs: &runs)
        return Field(fieldID: Int(fieldID), ring: ring)
    }

    private static func decodeSegments(
        _ reader: inout RingFileReader,
        pointCount: Int
    ) throws(TraceError) -> [(length: Int, flags: TraceSlot.Flags)] {
        let segmentCount = try reader.count(atMost: pointCount, of: "segments")
        var segments: [(length: Int, flags: TraceSlot.Flags)] = []
        var total = 0
        for _ in 0..<segmentCount {
            let length = try reader.count(atMost: pointCount - total, of: "points in a segment")
            let bits = try reader.byte()
            guard length > 0, bits & ~(startsRunBit | cloudBit) == 0 else {
                throw reader.malformed("a segment of \(length) points with flags \(bits)")
            }
            var flags = bits & cloudBit == 0 ? TraceSlot.Flags() : TraceSlot.Flags.cloud
            if bits & startsRunBit != 0 { flags.insert(.startsRun) }
            segments.append((length, flags))
            total += length
        }
        guard total == pointCount else { throw reader.malformed("segments of \(total) points for \(pointCount)") }
        return segments
    }

    private static func decodePoints(
        _ reader: inout RingFileReader,
        segments: [(length: Int, flags: TraceSlot.Flags)],
        into ring: TraceRing,
        runs: inout UInt32
    ) throws(TraceError) {
        var time: Int64 = 0
        var value: Int64 = 0
        var step: Int64 = 0
        var first = true
        for segment in segments {
            for index in 0..<segment.length {
                if first {
                    time = try reader.signed()
                    value = try reader.signed()
                } else {
                    step = step &+ (try reader.signed())
                    time = time &+ step
                    value = value &+ (try reader.signed())
                    guard step > 0 else { throw reader.malformed("a time step of \(step) ms") }
                }
                guard TraceSlot.validTimes.contains(time) else { throw reader.malformed("a time of \(time) ms") }
                var flags = index == 0 ? segment.flags : segment.flags.subtracting(.startsRun)
                if first { flags.formUnion(.startsRun) }
                let run = flags.contains(.startsRun) ? TraceRing.nextRun(&runs) : runs
                ring.append(TraceSlot(timeMs: time, value: value, run: run, flags: flags), anchor: nil)
                first = false
            }
        }
    }
}
