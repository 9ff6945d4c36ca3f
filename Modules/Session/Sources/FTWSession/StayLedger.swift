import FTWSessionInterface

/// How many request frames each stay in front cost, stays as ``Stays`` defines them (from the first phase in front
/// to the background; a frame sent while none runs belongs to the stay about to begin, as that return's cost).
struct StayLedger: Sendable, Hashable {
    /// Request frames per stay; index 0 is the first stay.
    private(set) var counts: [Int] = []
    private var stays = Stays()

    /// The stay a frame sent now belongs to (1 for the first).
    var current: Int { stays.current }

    /// `inactive` or `active`: a stay begins unless one is running (a glance keeps it).
    mutating func enter() {
        guard let stay = stays.cameToFront() else { return }
        grow(to: stay)
    }

    /// `background`: the running stay ends.
    ///
    /// - Returns: The stay that ended and its count, or nil when none ran.
    mutating func leave() -> (stay: Int, requests: Int)? {
        stays.left().map { ($0, counts[$0 - 1]) }
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
