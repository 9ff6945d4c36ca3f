/// How many request frames each stay in front cost: a stay runs from `active` to `background`, and the first
/// starts at the first `active`.
///
/// A frame sent while no stay runs (dialling at `inactive` on the way back) belongs to the stay about to start,
/// because it is that return's cost.
struct StayLedger: Sendable, Hashable {
    /// Request frames per stay; index 0 is the first stay.
    private(set) var counts: [Int] = []
    private var number = 0
    private var inFront = false

    /// The stay a frame sent now belongs to (1 for the first).
    var current: Int { inFront ? number : number + 1 }

    /// `active`: a stay starts unless one is running (a glance keeps it).
    mutating func enter() {
        guard !inFront else { return }
        inFront = true
        number += 1
        grow(to: number)
    }

    /// `background`: the running stay ends.
    ///
    /// - Returns: The stay that ended and its count, or nil when none ran.
    mutating func leave() -> (stay: Int, requests: Int)? {
        guard inFront else { return nil }
        inFront = false
        return (number, counts[number - 1])
    }

    /// Counts one request frame in `stay`.
    mutating func count(in stay: Int) {
        grow(to: stay)
        counts[stay - 1] += 1
    }

    private mutating func grow(to stay: Int) {
        if counts.count < stay { counts += Array(repeating: 0, count: stay - counts.count) }
    }
}
