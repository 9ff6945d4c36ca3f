import FTWBus
import FTWClockSeam
package import FTWSessionInterface

extension LiveTrace {
    /// Follows the session: live frames are recorded; the stream's end ends the box stream's anchor and picture.
    func handle(_ event: SessionEvent) {
        switch event {
        case .telemetry(let frame):
            record(frame)
        case .streamLost, .terminated:
            box = nil
        case .connection(let state):
            followIdle(state)
            if case .streaming = state { return }
            box = nil
        case .streamReturned, .planPushed, .asked, .boxError, .carrierClosed, .liveness:
            break
        }
    }

    /// Notes whether the app sits in the background, and wakes the ring file's beat when it leaves.
    private func followIdle(_ state: ConnectionState) {
        guard case .idle = state else {
            if isIdle { wakeFeed.yield(()) }
            isIdle = false
            return
        }
        isIdle = true
    }

    /// Records one box frame: places it on its connection's anchor, applies it to the picture, and records a point
    /// for every live field at the frame's stamp.
    package func record(_ frame: TelemetryFrame) {
        guard let gap = BoxAnchor.gap(arrivalMs: frame.arrivalMs, uptimeMs: frame.uptimeMs) else { return }
        let improvement = place(frame, gapMs: gap)
        guard let (anchor, stamp) = box?.take(frame.message, uptimeMs: frame.uptimeMs) else { return }
        if improvement > 0 { reanchor(anchor, earlierByMs: improvement) }
        guard let stamp else { return }
        recordBeat(atMs: stamp, anchor: anchor)
    }

    /// Puts the frame on its anchor, starting a new one for a new connection or a reboot; returns how much the
    /// anchor's smallest gap improved.
    private func place(_ frame: TelemetryFrame, gapMs: Int64) -> Int64 {
        if case .placed(let improvement)? = box?.anchor.place(
            connection: frame.connection,
            uptimeMs: frame.uptimeMs,
            gapMs: gapMs
        ) {
            return improvement
        }
        anchors &+= 1
        let anchor = BoxAnchor(connection: frame.connection, id: anchors, uptimeMs: frame.uptimeMs, gapMs: gapMs)
        if box?.anchor.connection == frame.connection {
            // Uptime went backwards on the same connection: the box rebooted, its sources' ages are another boot's.
            box?.anchor = anchor
            box?.picture.forgetSources()
        } else {
            box = BoxStream(anchor: anchor, newestStampMs: 0)
        }
        return 0
    }

    /// Moves every point stamped on `anchor` earlier by `deltaMs`: a less delayed frame showed the old anchor was
    /// late, so the whole connection now sits on the better one.
    private func reanchor(_ anchor: UInt32, earlierByMs deltaMs: Int64) {
        for ring in rings.values { ring.shift(anchor: anchor, byMs: deltaMs) }
        if let restored, restored.firstLiveAnchor == anchor, let firstLiveMs = restored.firstLiveMs {
            self.restored?.firstLiveMs = max(restored.newestMs, firstLiveMs - deltaMs)
        }
        events.publish(.changed)
    }

    private func recordBeat(atMs stampMs: Int64, anchor: UInt32) {
        var recorded = false
        // A local copy: the actor's own counter, passed `inout` once per field, costs an exclusivity check each.
        var runs = self.runs
        defer { self.runs = runs }
        box?.picture.forEachRecorded(replaced: ringsReplaced, ring: ring(for:)) { ring, value in
            recorded =
                ring.record(
                    timeMs: stampMs,
                    value: value,
                    source: .box,
                    gapRuleMs: boxGapRuleMs,
                    anchor: anchor,
                    runs: &runs
                ) || recorded
        }
        if recorded { noteLive(atMs: stampMs, anchor: anchor) }
    }
}
