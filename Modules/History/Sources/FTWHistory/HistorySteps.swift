import FTWBoxProtocol

/// What each step of the window says when a series has no reading there, shared by every column.
///
/// One byte a step rather than a `HistorySample` a sample: the window is rebuilt on every change and at every cold
/// start, and a plain byte array builds, compares and frees in a fraction of the time an array of enums with a
/// string payload takes. Gap reasons sit in a small table the codes point into.
struct HistorySteps: Sendable, Hashable {
    static let absent: UInt8 = 0
    static let held: UInt8 = 1
    static let onTheirWay: UInt8 = 2
    /// Codes from here on name `reasons[code - firstGap]`.
    static let firstGap: UInt8 = 3

    var codes: [UInt8]
    var reasons: [GapReason] = []

    init(count: Int) {
        codes = Array(repeating: Self.absent, count: count)
    }

    /// The code of a gap named `reason`, adding it to the table; past the table's room the last reason stands in
    /// (the box defines three).
    mutating func code(of reason: GapReason) -> UInt8 {
        if let index = reasons.firstIndex(of: reason) { return Self.firstGap + UInt8(index) }
        guard reasons.count < Int(UInt8.max - Self.firstGap) else { return UInt8.max }
        reasons.append(reason)
        return Self.firstGap + UInt8(reasons.count - 1)
    }

    /// The sample of `value` at `step`: the reading, or what the step says about its absence.
    func sample(_ value: Int32, at step: Int) -> HistorySample {
        if value != TileData.missing { return .value(value) }
        switch codes[step] {
        case Self.absent: return .absent
        case Self.held: return .missing
        case Self.onTheirWay: return .onTheirWay
        case let code: return .gap(reasons[min(Int(code - Self.firstGap), reasons.count - 1)])
        }
    }
}
