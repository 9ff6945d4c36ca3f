import FTWBoxProtocol

/// The box's freshness ladder (§3.2): a source's state from the age of its last good reading, in box uptime.
enum SourceLadder {
    /// `never` until the device first answers, then `live` within one `staleAfterMs`, `lagging` within two,
    /// `stale` within six, and `down` after that.
    static func state(lastOkMs: Int64, uptimeMs: Int64, staleAfterMs: Int64) -> SourceState {
        guard lastOkMs > 0, staleAfterMs > 0 else { return .never }
        let age = uptimeMs - lastOkMs
        if age <= staleAfterMs { return .live }
        if age <= 2 * staleAfterMs { return .lagging }
        if age <= 6 * staleAfterMs { return .stale }
        return .down
    }
}
