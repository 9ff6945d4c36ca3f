import Foundation

/// The system's wall clock: what the apps hand to the modules when they run for real.
///
/// - Important: Only `Apps/*` construct this; modules take a ``WallClock`` parameter with no default so a test can
///   always put time in its own hands.
public struct SystemWallClock: WallClock {
    /// Makes the system wall clock.
    public init() {}

    /// Now, in milliseconds since the Unix epoch, rounded down.
    public var nowMs: Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
}
