import FTWSession
import Foundation

/// The soak's draws (counts, ranges, weights, durations spread over orders of magnitude) from the session's seeded
/// SplitMix64, so a seed draws the same scenario on every machine and toolchain.
struct SoakRandom {
    private let source: SeededRandomSource

    /// Starts from `seed`.
    init(seed: UInt64) { source = SeededRandomSource(seed: seed) }

    /// A number in `0..<count`; `count` must be positive.
    func below(_ count: Int) -> Int {
        min(count - 1, Int(source.next() * Double(max(1, count))))
    }

    /// A number in `range`.
    func within(_ range: ClosedRange<Int64>) -> Int64 {
        range.lowerBound + Int64(below(Int(range.upperBound - range.lowerBound + 1)))
    }

    /// True with probability `percent` in 100.
    func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }

    /// A duration between `low` and `high` ms, spread evenly over orders of magnitude: many short ones, some long.
    func spread(_ low: Int64, _ high: Int64) -> Int64 {
        let value = Double(low) * pow(Double(high) / Double(low), source.next())
        return min(high, max(low, Int64(value)))
    }

    /// One of `items`, picked by their weights.
    func pick<Item>(_ items: [(weight: Int, item: Item)]) -> Item {
        var roll = below(items.reduce(0) { $0 + $1.weight })
        for entry in items {
            if roll < entry.weight { return entry.item }
            roll -= entry.weight
        }
        return items[items.count - 1].item
    }
}
