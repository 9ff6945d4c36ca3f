/// Which of the session's two streams a frame travels on.
///
/// The lanes exist for privacy, not priority: lane 0 frames are all one size for the life of a session, so the
/// 1 Hz telemetry stream says nothing to the relay about what happens in the house; everything whose size depends
/// on what was asked goes on the bulk lane, padded to a few coarse sizes.
public enum Lane: UInt8, Sendable, Hashable, CaseIterable {
    /// Lane 0: telemetry, commands and errors, in fixed 256- or 512-byte frames.
    case control = 0
    /// Lane 1: snapshots, plans, prices, history and API answers, in 1024-, 4096- or 16384-byte frames.
    case bulk = 1
}
