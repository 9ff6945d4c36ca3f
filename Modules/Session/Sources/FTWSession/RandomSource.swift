/// Where the session's randomness comes from: the jitter of its redial backoff and the random bits of a command id.
///
/// A seam like the clock, so a test or a simulated scenario can say exactly which delays a backoff draws.
public protocol RandomSource: Sendable {
    /// A number in `0 ..< 1`.
    func next() -> Double
}

/// The system's random numbers: what the apps use.
public struct SystemRandomSource: RandomSource {
    /// Makes the source.
    public init() {}

    /// A uniformly distributed number in `0 ..< 1`.
    public func next() -> Double { Double.random(in: 0..<1) }
}

extension RandomSource {
    /// The next number, held to `0 ..< 1` even if a source misbehaves, so arithmetic on it cannot trap.
    func nextUnit() -> Double {
        let value = next()
        guard value.isFinite, value > 0 else { return 0 }
        return min(value, 1.0.nextDown)
    }
}
