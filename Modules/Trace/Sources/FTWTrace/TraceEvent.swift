public import FTWSealInterface
public import FTWSessionInterface

/// What a trace tells its observers, on its bus: redraw, and what happened to the ring file.
public enum TraceEvent: Sendable, Hashable {
    /// Points were added or moved (a live beat, a restore, a re-anchored connection): redraw.
    case changed
    /// The cloud feed went live (a message after none or after a silence) or stale (its gap rule passed after its
    /// last message): whoever shows cloud readings redraws them as live or stale.
    case cloudLiveness(StreamLiveness)
    /// The ring file was read back at launch; `points` is how many points it held over all fields.
    case restored(points: Int)
    /// The ring file opened but its contents did not decode, so the trace starts empty.
    case restoreFailed(TraceError)
    /// The ring file was written; `bytes` is the size of its contents before sealing.
    case persisted(bytes: Int)
    /// The ring file could not be written; the previous one, if any, is still in place.
    case persistFailed(SealError)
}
