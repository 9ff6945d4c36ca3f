import FTWSessionInterface

/// The box stream on one connection: the anchor that stamps its frames and the picture its frames build.
struct BoxStream {
    /// Places the connection's uptime on the wall clock.
    var anchor: BoxAnchor
    /// The fields, their values and whether each is live.
    var picture = BoxPicture()
    /// The stamp of the newest frame: while it is within the box's gap rule, the cloud feed is not recorded.
    var newestStampMs: Int64

    /// Applies a frame's message to the picture and stamps the frame on the anchor, keeping the stamp as the newest.
    /// Returns the anchor's id and the stamp, nil when the frame's uptime cannot be placed on the wall clock.
    ///
    /// One call in place, so a frame neither copies the stream nor reaches into it once per step.
    mutating func take(_ message: TelemetryFrame.Message, uptimeMs: Int64) -> (anchor: UInt32, stampMs: Int64?) {
        switch message {
        case .snap(let snap): picture.apply(snap)
        case .delta(let delta, let truncated): picture.apply(delta, truncated: truncated)
        case .tick: picture.applyTick()
        }
        let stamp = anchor.stamp(uptimeMs: uptimeMs)
        if let stamp { newestStampMs = stamp }
        return (anchor.id, stamp)
    }
}

/// Where reading the ring file back stands; a restore runs once per trace.
enum Restoration {
    /// Not asked yet.
    case pending
    /// Reading; callers that ask meanwhile wait for it to finish.
    case reading(waiters: [CheckedContinuation<Void, Never>])
    /// Done, whether the file gave points or not.
    case finished
}

/// What the ring file gave, for the time the app missed.
struct RestoredSpan {
    /// The newest point read back.
    var newestMs: Int64
    /// The first live point after the restore, once one came.
    var firstLiveMs: Int64?
    /// The anchor that stamped it, when the box did: a better anchor moves it too.
    var firstLiveAnchor: UInt32?
}

/// The ring file's writer: whether a write is on its way, and who waits for it.
struct RingWriter {
    /// Persist requests so far.
    var requested = 0
    /// The requests the last finished write covered.
    var covered = 0
    /// True while a write is on its way.
    var isWriting = false
    /// Requests waiting for it to finish.
    var waiters: [CheckedContinuation<Void, Never>] = []
}
