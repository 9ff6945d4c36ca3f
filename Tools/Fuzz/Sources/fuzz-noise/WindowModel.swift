import FTWFuzzSupport
import FTWNoise

/// The replay window against a plain model of its rule: a number is fresh when it was never accepted and is
/// fewer than 64 behind the newest accepted. The 64 is the protocol's, written here rather than taken from
/// `ReplayWindow.width`, so a change to the window shows up as a disagreement.
struct WindowModel {
    private(set) var accepted: Set<UInt64> = []
    private(set) var newest: UInt64?

    func isFresh(_ sequence: UInt64) -> Bool {
        guard let newest, sequence <= newest else { return true }
        return newest - sequence < 64 && !accepted.contains(sequence)
    }

    mutating func accept(_ sequence: UInt64) {
        accepted.insert(sequence)
        newest = max(newest ?? sequence, sequence)
    }

    /// A sequence number near the newest (where the window's edges are) or anywhere, from the next input bytes.
    func pick(_ input: inout FuzzInput) -> UInt64 {
        let base = newest ?? 0
        switch input.choice(below: 4) {
        case 0: return input.uint64()
        case 1: return base &+ UInt64(input.byte())
        case 2: return base &- UInt64(input.byte())
        default: return UInt64.max &- UInt64(input.byte())
        }
    }
}
