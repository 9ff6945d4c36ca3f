import ClockSeam

extension LiveTrace {
    /// Records one message of the cloud feed at its send time, under the cloud's gap rule.
    ///
    /// While the box's own stream is fresh (its newest frame within the box's gap rule of the message) the cloud is
    /// not recorded: the box stream is stamped more precisely and beats every second, and two sources interleaved
    /// in one ring would zigzag between their stamps. A message stamped at or before a ring's newest point is
    /// dropped for that ring, so rings only move forward in time.
    public func record(cloud reading: CloudReading) {
        guard TraceSlot.validTimes.contains(reading.sentAtMs) else { return }
        if let box, reading.sentAtMs - box.newestStampMs <= boxGapRuleMs { return }
        let gapRuleMs = configuration.cloudGapRule.wholeMilliseconds
        var recorded = false
        for fieldID in reading.fields.keys.sorted() {
            guard let value = reading.fields[fieldID], let ring = ring(for: fieldID) else { continue }
            recorded =
                ring.record(
                    timeMs: reading.sentAtMs,
                    value: value,
                    source: .cloud,
                    gapRuleMs: gapRuleMs,
                    anchor: nil,
                    runs: &runs
                ) || recorded
        }
        if recorded { noteLive(atMs: reading.sentAtMs, anchor: nil) }
    }
}
