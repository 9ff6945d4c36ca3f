import FTWClient

/// A stretch of a node's chart with no points: the app was away (the launch gap: from the newest point the ring file
/// gave to the first live one) or the stream was down (an outage: between two recorded runs, or from the newest live
/// point to now while the connection is not live). A chart draws each as missed time, never as a line across it.
public struct MissedStretch: Sendable, Hashable {
    /// The newest point before it (Unix ms).
    public var fromMs: Int64
    /// The first point after it (Unix ms); nil while it is still open (it reaches now).
    public var untilMs: Int64?
    /// Whether it is the launch gap: restored points before it.
    public var atLaunch: Bool

    /// Every missed stretch of `trace`, oldest first: each boundary between its recorded runs (the source's gap
    /// rule split them where no point came; the runs are read as recorded, never worked out again), the launch gap
    /// while no live point has come, and an open outage from the newest live point while `isLive` is false.
    public static func of(_ trace: FieldTrace, isLive: Bool) -> [MissedStretch] {
        var stretches = zip(trace.samples, trace.samples.dropFirst()).compactMap { before, after in
            after.run == before.run
                ? nil : MissedStretch(fromMs: before.timeMs, untilMs: after.timeMs, atLaunch: !before.seen)
        }
        if let missed = trace.missed, missed.untilMs == nil {
            stretches.append(MissedStretch(fromMs: missed.fromMs, untilMs: nil, atLaunch: true))
        } else if !isLive, let newest = trace.samples.last, newest.seen {
            stretches.append(MissedStretch(fromMs: newest.timeMs, untilMs: nil, atLaunch: false))
        }
        return stretches
    }

    /// How long it is at `nowMs`, in whole seconds: to its end, or to now while it is open.
    public func seconds(nowMs: Int64) -> Int64 {
        ((untilMs ?? nowMs) - fromMs) / 1000
    }
}
