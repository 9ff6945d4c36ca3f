/// One field's last minutes: a circular buffer of ``TraceSlot`` in one allocation, reserved once at a fixed
/// capacity.
///
/// An append writes one slot in place and moves two indices; trimming to the window only moves the head. Nothing
/// grows, so memory is fixed from the ring's first point and the steady state allocates nothing. The cursor and the
/// slots live in one `ManagedBuffer` reached through a `let`, so an append pays no exclusivity check and no
/// reference counting. Points are kept in strictly increasing time, which is what lets a chart draw them in order
/// and the ring file delta-encode them.
///
/// ## Concurrency
/// Not `Sendable`: each ring belongs to one `LiveTrace` and never leaves its actor (the benchmark drives one alone).
package final class TraceRing {
    /// Where the ring stands: the header of its allocation.
    struct Cursor {
        /// Slots in the buffer.
        let capacity: Int
        /// How far back the ring reaches from its newest point.
        let windowMs: Int64
        /// The oldest point's slot.
        var head = 0
        /// Points held.
        var count = 0
        /// The anchor the newest points were stamped on, and how many of them: the tail a better anchor moves.
        var anchor: UInt32?
        var anchoredCount = 0
        /// Set after a restore: the next point starts a run whatever the gap.
        var breaksNextRun = false
        /// Points appended since the ring was made: the sequence number the next point takes, so a point keeps one
        /// number while the head moves past the points before it.
        var appended: UInt64 = 0
        /// The lowest sequence number whose slot changed in place (``shift(anchor:byMs:)``) since the ring file
        /// last encoded the ring; `.max` when none did.
        var changedFrom = UInt64.max

        /// The sequence number of the point at `index`.
        func sequence(_ index: Int) -> UInt64 {
            appended - UInt64(count) + UInt64(index)
        }

        /// The slot of the point at `index` (0 the oldest), without a division.
        func slot(_ index: Int) -> Int {
            let position = head + index
            return position >= capacity ? position - capacity : position
        }
    }

    let buffer: ManagedBuffer<Cursor, TraceSlot>
    /// What the ring file last held of this ring, so the next write copies what did not change.
    var encoding = RingEncoding()

    /// Makes an empty ring of `capacity` slots keeping `windowMs` of points.
    package init(capacity: Int, windowMs: Int64) {
        let capacity = max(1, capacity)
        buffer = ManagedBuffer.create(minimumCapacity: capacity) { _ in
            Cursor(capacity: capacity, windowMs: windowMs)
        }
        buffer.withUnsafeMutablePointerToElements { slots in
            slots.initialize(repeating: TraceSlot(timeMs: 0, value: 0, run: 0, flags: []), count: capacity)
        }
    }

    deinit {
        buffer.withUnsafeMutablePointers { cursor, slots in
            _ = slots.deinitialize(count: cursor.pointee.capacity)
        }
    }

    /// The most points the ring holds: the slots it reserved, for its whole life.
    package var capacity: Int { buffer.header.capacity }

    /// Points held.
    package var count: Int { buffer.header.count }

    /// Whether the next point starts a run whatever the gap: set after a restore, so no line joins across it.
    package var breaksNextRun: Bool {
        get { buffer.header.breaksNextRun }
        set { buffer.header.breaksNextRun = newValue }
    }

    /// The point at `index`, 0 being the oldest.
    package subscript(index: Int) -> TraceSlot {
        buffer.withUnsafeMutablePointers { cursor, slots in
            precondition(index >= 0 && index < cursor.pointee.count, "ring index \(index) out of range")
            return slots[cursor.pointee.slot(index)]
        }
    }

    /// The newest point, if any.
    package var newest: TraceSlot? { count == 0 ? nil : self[count - 1] }

    /// Appends `slot`, which must be after the newest point, and drops what falls out of the window or past the
    /// capacity; `anchor` is the box anchor it was stamped on, nil for a point no anchor stamped.
    package func append(_ slot: TraceSlot, anchor: UInt32?) {
        buffer.withUnsafeMutablePointers { cursor, slots in
            Self.append(slot, anchor: anchor, cursor: &cursor.pointee, slots: slots)
        }
    }

    static func append(
        _ slot: TraceSlot,
        anchor: UInt32?,
        cursor: inout Cursor,
        slots: UnsafeMutablePointer<TraceSlot>
    ) {
        slots[cursor.slot(cursor.count)] = slot
        cursor.appended &+= 1
        if cursor.count == cursor.capacity {
            cursor.head = cursor.slot(1)
        } else {
            cursor.count += 1
        }
        let cutoff = slot.timeMs - cursor.windowMs
        while cursor.count > 1, slots[cursor.head].timeMs < cutoff {
            cursor.head = cursor.slot(1)
            cursor.count -= 1
        }
        if let anchor, anchor == cursor.anchor {
            cursor.anchoredCount += 1
        } else {
            cursor.anchor = anchor
            cursor.anchoredCount = anchor == nil ? 0 : 1
        }
        cursor.anchoredCount = min(cursor.anchoredCount, cursor.count)
    }

    /// Moves the points stamped on `anchor` earlier by `deltaMs`, never to or before the point before them.
    ///
    /// Used when the anchor's smallest gap improves: every point of one connection then sits on the same anchor.
    package func shift(anchor: UInt32, byMs deltaMs: Int64) {
        buffer.withUnsafeMutablePointers { cursor, slots in
            let ring = cursor.pointee
            guard ring.anchor == anchor, ring.anchoredCount > 0 else { return }
            let first = ring.count - ring.anchoredCount
            cursor.pointee.changedFrom = min(ring.changedFrom, ring.sequence(first))
            var previous = first > 0 ? slots[ring.slot(first - 1)].timeMs : Int64.min
            for index in first..<ring.count {
                let position = ring.slot(index)
                let moved = max(slots[position].timeMs - deltaMs, previous + 1)
                slots[position].timeMs = moved
                previous = moved
            }
        }
    }
}
