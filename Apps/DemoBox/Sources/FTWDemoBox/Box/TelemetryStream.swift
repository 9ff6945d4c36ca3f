import FTWBoxProtocol

/// One session's lane 0 stream (§2.3-2.5): the bucket its first `sub` fixed, the cadence, the sequence number, and
/// what was last sent, so each due pulse sends exactly one frame: a `tick` when nothing changed, else a `delta`
/// with only what changed, cut to fit the bucket.
struct TelemetryStream: Sendable {
    /// One frame to send, with the header flags it needs.
    struct Outgoing: Sendable {
        var message: Message
        var flags: FrameFlags = []
    }

    /// The lane 0 frame size, 256 or 512, fixed for the session.
    let bucket: Int
    /// Pulses per frame: 1 (1 Hz) or 5 (0.2 Hz).
    private(set) var every: Int
    private(set) var seq: UInt64 = 0
    private var pulses = 0
    private var sentFields: [Int: Int64]
    private var sentSources: [String: SourceInfo]
    private var sentBlocked: [String]
    private var sentControlRev: UInt64

    /// Starts the stream for `sub`, right after `snap` went out.
    init(sub: Sub, after snap: Snap) {
        bucket = Frame.controlBuckets.contains(sub.bucket) ? sub.bucket : Frame.defaultControlBucket
        every = Self.pulsesPerFrame(hz: sub.hz)
        sentFields = snap.fields
        sentSources = snap.sources
        sentBlocked = snap.dispatchBlockedBy
        sentControlRev = snap.controlRev
    }

    /// A later `sub` changes only the cadence.
    mutating func retune(_ sub: Sub) {
        every = Self.pulsesPerFrame(hz: sub.hz)
    }

    /// The box compares with 0.2 exactly: a float32 0.2 is not 0.2, and falls back to 1 Hz.
    static func pulsesPerFrame(hz: Double) -> Int {
        hz == 0.2 ? 5 : 1
    }

    /// What this pulse sends given the site `now`: nothing between due pulses; on a due one, a resync `snap` first
    /// when `controlRev` moved, then one `tick` or `delta`.
    mutating func pulse(_ now: Snap) -> [Outgoing] {
        pulses += 1
        guard pulses % every == 0 else { return [] }
        var out: [Outgoing] = []
        if now.controlRev != sentControlRev {
            out.append(Outgoing(message: .snap(now)))
            sentFields = now.fields
            sentSources = now.sources
            sentBlocked = now.dispatchBlockedBy
            sentControlRev = now.controlRev
        }
        seq += 1
        out.append(frame(now))
        return out
    }

    private mutating func frame(_ now: Snap) -> Outgoing {
        let changed = now.fields.filter { sentFields[$0.key] != $0.value }
        let sourcesChanged = !Self.sameSources(now.sources, sentSources) || now.dispatchBlockedBy != sentBlocked
        guard !changed.isEmpty || sourcesChanged else {
            return Outgoing(message: .tick(Tick(seq: seq, uptimeMs: now.uptimeMs)))
        }
        var delta = Delta(
            seq: seq,
            uptimeMs: now.uptimeMs,
            fields: changed,
            sources: sourcesChanged ? now.sources : nil,
            dispatchBlockedBy: sourcesChanged ? now.dispatchBlockedBy : nil
        )
        let truncated = fit(&delta)
        for (fid, value) in delta.fields { sentFields[fid] = value }
        if delta.sources != nil {
            sentSources = now.sources
            sentBlocked = now.dispatchBlockedBy
        }
        return Outgoing(message: .delta(delta), flags: truncated ? .truncated : [])
    }

    /// Cuts `delta` to the bucket: the source table first, then fields from the highest id; what is cut is not
    /// marked sent, so it goes out on a later pulse.
    private func fit(_ delta: inout Delta) -> Bool {
        var truncated = false
        while Message.delta(delta).envelope(id: nil).encoded().count > bucket - Frame.headerSize {
            truncated = true
            if delta.sources != nil {
                delta.sources = nil
                delta.dispatchBlockedBy = nil
            } else if let highest = delta.fields.keys.max() {
                delta.fields[highest] = nil
            } else {
                break
            }
        }
        return truncated
    }

    /// Whether two source tables differ only in `lastOkMs`, which alone is no reason to send the table.
    private static func sameSources(_ lhs: [String: SourceInfo], _ rhs: [String: SourceInfo]) -> Bool {
        func key(_ table: [String: SourceInfo]) -> [String: [String]] {
            table.mapValues { [$0.kind, $0.name, String($0.staleAfterMs), $0.state.rawValue] }
        }
        return key(lhs) == key(rhs)
    }
}
