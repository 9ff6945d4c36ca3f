extension TraceRing {
    /// Records one live point: it starts a run when the gap since the newest point is longer than `gapRuleMs`, when
    /// the ring is empty, or when a restore came before it.
    ///
    /// - Parameters:
    ///   - timeMs: The point's stamp.
    ///   - value: The reading.
    ///   - source: Where it came from; the caller passes that source's gap rule.
    ///   - gapRuleMs: The longest gap that still joins the newest point.
    ///   - anchor: The box anchor that stamped it, nil for the cloud.
    ///   - runs: The trace's run counter; a new run takes the next id.
    /// - Returns: False when the point is not after the newest one and was dropped.
    @discardableResult
    package func record(
        timeMs: Int64,
        value: Int64,
        source: TraceSource,
        gapRuleMs: Int64,
        anchor: UInt32?,
        runs: inout UInt32
    ) -> Bool {
        buffer.withUnsafeMutablePointers { cursor, slots in
            var flags = source == .cloud ? TraceSlot.Flags.seenFromCloud : TraceSlot.Flags.seen
            var run: UInt32?
            if cursor.pointee.count > 0 {
                let newest = slots[cursor.pointee.slot(cursor.pointee.count - 1)]
                guard timeMs > newest.timeMs else { return false }
                let joins = !cursor.pointee.breaksNextRun && timeMs - newest.timeMs <= gapRuleMs
                run = joins ? newest.run : nil
            }
            if run == nil { flags.formUnion(.startsRun) }
            cursor.pointee.breaksNextRun = false
            let slot = TraceSlot(timeMs: timeMs, value: value, run: run ?? Self.nextRun(&runs), flags: flags)
            Self.append(slot, anchor: anchor, cursor: &cursor.pointee, slots: slots)
            return true
        }
    }

    /// The next run id.
    static func nextRun(_ runs: inout UInt32) -> UInt32 {
        runs &+= 1
        return runs
    }
}
