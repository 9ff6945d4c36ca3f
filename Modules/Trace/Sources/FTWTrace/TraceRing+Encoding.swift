import FTWSealInterface

extension TraceRing {
    /// Writes the ring's points as the ring file holds them (its segments, the oldest point's time and value, then
    /// `(ΔΔt, Δv)` for every later point), keeping what the previous write worked out for every point that cannot
    /// have changed, and keeps what it wrote for the next write.
    ///
    /// A point's bytes are kept when the point and the two before it are the same points as then, untouched since
    /// (a better anchor moves a connection's tail in place, see ``shift(anchor:byMs:)``), and not the first after
    /// the oldest, whose time step is written against a step of zero. Everything else is encoded again. The
    /// segments are carried over the same way: the ones the head left behind go, the one it cut starts at the
    /// head, and only the new points are looked at.
    func writeContents(to writer: inout BinaryWriter) {
        buffer.withUnsafeMutablePointers { cursor, slots in
            let ring = cursor.pointee
            guard ring.count > 0 else { return }
            var kept = RingEncoding()
            swap(&kept, &encoding)
            Self.carrySegments(ring, slots, &kept)
            Self.carryPoints(ring, slots, &kept)
            writer.count(kept.segments.count)
            for (index, segment) in kept.segments.enumerated() {
                let end = index + 1 < kept.segments.count ? kept.segments[index + 1].start : kept.endSequence
                writer.count(Int(end - segment.start))
                writer.byte(segment.flags)
            }
            let oldest = slots[ring.slot(0)]
            writer.signed(oldest.timeMs)
            writer.signed(oldest.value)
            writer.raw(kept.points)
            swap(&kept, &encoding)
            cursor.pointee.changedFrom = .max
        }
    }

    /// Brings the segments of `encoding` to the ring as it is: where each stretch of consecutive points from one
    /// source starts (a run starting only at a stretch's first point), and its first point's flags.
    private static func carrySegments(
        _ ring: Cursor,
        _ slots: UnsafeMutablePointer<TraceSlot>,
        _ encoding: inout RingEncoding
    ) {
        let head = ring.sequence(0)
        var next = head
        if head >= encoding.firstSequence, head < encoding.endSequence,
            let cut = encoding.segments.lastIndex(where: { $0.start <= head })
        {
            encoding.segments.removeFirst(cut)
            encoding.segments[0] = RingEncoding.Segment(start: head, flags: fileFlags(slots[ring.slot(0)]))
            next = encoding.endSequence
        } else {
            encoding.segments.removeAll(keepingCapacity: true)
        }
        guard next < ring.appended else { return }
        var position = ring.slot(Int(next - head))
        var lastFlags = encoding.segments.last.map { $0.flags & RingFile.cloudBit }
        for sequence in next..<ring.appended {
            let flags = fileFlags(slots[position])
            position = position &+ 1 == ring.capacity ? 0 : position &+ 1
            if flags == lastFlags { continue }
            encoding.segments.append(RingEncoding.Segment(start: sequence, flags: flags))
            lastFlags = flags & RingFile.cloudBit
        }
    }

    /// A slot's run start and source as the file writes them: the slot keeps them in bits 1 and 2, the file in
    /// bits 0 and 1.
    private static func fileFlags(_ slot: TraceSlot) -> UInt8 {
        (slot.flags.rawValue >> 1) & (RingFile.startsRunBit | RingFile.cloudBit)
    }

    /// Brings the `(ΔΔt, Δv)` bytes of `encoding` to the ring as it is, in place: the bytes of the points that
    /// cannot have changed stay, the first point after the new head and every new or moved point are encoded.
    private static func carryPoints(
        _ ring: Cursor,
        _ slots: UnsafeMutablePointer<TraceSlot>,
        _ encoding: inout RingEncoding
    ) {
        let head = ring.sequence(0)
        let end = ring.appended
        // Kept: from the second point after the new head, up to what was encoded and is still untouched.
        let keepFrom = head + 2
        let keepTo = min(encoding.endSequence, ring.changedFrom)
        guard head >= encoding.firstSequence, keepFrom < keepTo else {
            encoding.points.removeAll(keepingCapacity: true)
            encode(head + 1..<end, ring, slots, into: &encoding.points)
            (encoding.firstSequence, encoding.endSequence) = (head, end)
            return
        }
        let keptStart = encoding.start(of: keepFrom)
        if keepTo < encoding.endSequence {
            encoding.points.removeSubrange(encoding.start(of: keepTo, from: keptStart, at: keepFrom)...)
        }
        var first: [UInt8] = []
        encode(head + 1..<keepFrom, ring, slots, into: &first)
        encoding.points.replaceSubrange(0..<keptStart, with: first)
        encode(keepTo..<end, ring, slots, into: &encoding.points)
        (encoding.firstSequence, encoding.endSequence) = (head, end)
    }

    /// Appends the `(ΔΔt, Δv)` bytes of the points numbered `sequences` (none of them the oldest) to `bytes`.
    private static func encode(
        _ sequences: Range<UInt64>,
        _ ring: Cursor,
        _ slots: UnsafeMutablePointer<TraceSlot>,
        into bytes: inout [UInt8]
    ) {
        guard let first = sequences.first else { return }
        let index = Int(first - ring.sequence(0))
        var before = slots[ring.slot(index - 1)]
        var previousStep = index >= 2 ? before.timeMs &- slots[ring.slot(index - 2)].timeMs : 0
        var writer = BinaryWriter(appendingTo: bytes)
        bytes = []
        var position = ring.slot(index)
        writer.batch(of: 2 * sequences.count) { batch in
            for _ in sequences {
                let slot = slots[position]
                position = position &+ 1 == ring.capacity ? 0 : position &+ 1
                let step = slot.timeMs &- before.timeMs
                batch.signed(step &- previousStep)
                batch.signed(slot.value &- before.value)
                (before, previousStep) = (slot, step)
            }
        }
        bytes = writer.bytes
    }
}
