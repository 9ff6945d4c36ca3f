import Synchronization

/// A reproducible stream of numbers (SplitMix64): the same seed draws the same backoffs on every run, which is what
/// a simulated scenario and a test want.
///
/// ## Concurrency
/// The generator's one word of state sits behind a `Mutex`.
public final class SeededRandomSource: RandomSource {
    private let state: Mutex<UInt64>

    /// Makes a stream starting from `seed`.
    public init(seed: UInt64) {
        state = Mutex(seed)
    }

    /// The next number in `0 ..< 1`, from the top 53 bits of the next SplitMix64 output.
    public func next() -> Double {
        let word = state.withLock { state -> UInt64 in
            state &+= 0x9E37_79B9_7F4A_7C15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
            return mixed ^ (mixed >> 31)
        }
        return Double(word >> 11) / Double(UInt64(1) << 53)
    }
}
