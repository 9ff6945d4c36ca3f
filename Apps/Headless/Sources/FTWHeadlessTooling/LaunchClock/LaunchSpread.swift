/// The median and range of one stage over several launches: a number with its noise beside it.
public struct LaunchSpread: Sendable, Hashable, Codable {
    /// The median, in milliseconds.
    public var median: Double
    /// The fastest, in milliseconds.
    public var min: Double
    /// The slowest, in milliseconds.
    public var max: Double

    /// The spread of `values`; all zero when there are none.
    public init(_ values: [Double]) {
        let sorted = values.sorted()
        guard let first = sorted.first, let last = sorted.last else {
            self.init(median: 0, min: 0, max: 0)
            return
        }
        let middle = sorted.count / 2
        let median = sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
        self.init(median: median, min: first, max: last)
    }

    /// Makes a spread from its numbers.
    public init(median: Double, min: Double, max: Double) {
        self.median = median
        self.min = min
        self.max = max
    }
}
