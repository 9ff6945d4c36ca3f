import FTWBus
import FTWClockSeam
public import FTWSessionInterface

extension LiveTrace {
    /// Records one message of the cloud feed at its send time, under the cloud's gap rule, and counts it as the
    /// cloud's beat: the feed is live from this message until its gap rule passes without another.
    ///
    /// While the box's own stream is fresh (its newest frame within the box's gap rule of the message) the cloud is
    /// not recorded: the box stream is stamped more precisely and beats every second, and two sources interleaved
    /// in one ring would zigzag between their stamps. A message stamped at or before a ring's newest point is
    /// dropped for that ring, so rings only move forward in time.
    public func record(cloud reading: CloudReading) {
        guard TraceSlot.validTimes.contains(reading.sentAtMs) else { return }
        cloudBeat()
        if let box, reading.sentAtMs - box.newestStampMs <= boxGapRuleMs { return }
        var recorded = false
        for fieldID in reading.fields.keys.sorted() {
            guard let value = reading.fields[fieldID], let ring = ring(for: fieldID) else { continue }
            recorded =
                ring.record(
                    timeMs: reading.sentAtMs,
                    value: value,
                    source: .cloud,
                    gapRuleMs: cloudGapRuleMs,
                    anchor: nil,
                    runs: &runs
                ) || recorded
        }
        if recorded { noteLive(atMs: reading.sentAtMs, anchor: nil) }
    }
}

extension LiveTrace {
    /// Whether the cloud feed is live now: live while its messages arrive within its gap rule
    /// (``TraceConfiguration/cloudGapRule``), stale from the moment the rule passes after the last; nil before its
    /// first message. Judged at the wall clock's now, so it is honest whether or not the service runs.
    public func cloudLiveness() -> StreamLiveness? {
        guard var watch = cloudBeats else { return nil }
        _ = watch.judge(atMs: wallClock.nowMs)
        return watch.liveness
    }

    /// A cloud message arrived now: one store while live; on the first after a silence, the change is told and the
    /// watch woken. The box stream's rule (``BeatWatch``), with the cloud's gap.
    private func cloudBeat() {
        let nowMs = wallClock.nowMs
        var watch = cloudBeats ?? BeatWatch(gapMs: cloudGapRuleMs, atMs: nowMs)
        let change = watch.beat(atMs: nowMs)
        cloudBeats = watch
        guard let change else { return }
        events.publish(.cloudLiveness(change))
        cloudWakeFeed.yield(())
    }

    /// Says the cloud feed went stale the moment its gap rule passes after its last message: one deadline on the
    /// injected clock, re-armed from the last message when it fires, never a timer per message; while stale or
    /// before the first message it waits for the next.
    func watchCloud() async {
        await watchCloud(on: clock)
    }

    private func watchCloud<C: Clock<Duration>>(on clock: C) async {
        var wakes = cloudWakes.makeAsyncIterator()
        while await wakes.next() != nil {
            while let againInMs = judgeCloud() {
                do {
                    try await clock.sleep(for: .milliseconds(againInMs), tolerance: nil)
                } catch {
                    return
                }
            }
        }
    }

    /// Judges the cloud's silence now: tells the change to stale; returns how long until it should be judged again.
    private func judgeCloud() -> Int64? {
        guard var watch = cloudBeats else { return nil }
        let (change, againInMs) = watch.judge(atMs: wallClock.nowMs)
        cloudBeats = watch
        if let change { events.publish(.cloudLiveness(change)) }
        return againInMs
    }
}
