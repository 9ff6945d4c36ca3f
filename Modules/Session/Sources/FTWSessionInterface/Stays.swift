/// The stays in front of one run of the app: the unit the project counts its promise to the box in.
///
/// A stay begins at the first phase in front (`inactive` or `active`) after a launch or a background; a glance
/// (`active` → `inactive` → `active`) keeps it. It ends at the background, or when the app is killed. A request frame
/// belongs to the stay running when it left, or, sent while none runs, to the stay about to begin (that return's
/// cost); a moment, such as a frame's arrival at the box, belongs to the last stay that began at or before it, so a
/// frame still in flight when a stay ended counts in that stay.
///
/// The session counts its asks log by it and the headless tooling its reports and the soak's bounds; this is the
/// one place the rule is written.
public struct Stays: Sendable, Hashable {
    /// How many stays have begun.
    public private(set) var begun = 0
    /// Whether a stay is running.
    public private(set) var running = false

    /// No stay yet.
    public init() {}

    /// The stay a request frame sent now belongs to (1 for the first): the running one, or the one about to begin.
    public var current: Int { running ? begun : begun + 1 }

    /// The app is in front (`inactive` or `active`).
    ///
    /// - Returns: The stay that began (1 for the first), or nil when one was already running.
    public mutating func cameToFront() -> Int? {
        guard !running else { return nil }
        running = true
        begun += 1
        return begun
    }

    /// The app went to the background or was killed.
    ///
    /// - Returns: The stay that ended, or nil when none was running.
    public mutating func left() -> Int? {
        guard running else { return nil }
        running = false
        return begun
    }

    /// Which stay (0-based, into `beganAtMs`) a moment belongs to: the last that began at or before `atMs`; nil
    /// before the first.
    public static func index(atMs: Int64, beganAtMs: [Int64]) -> Int? {
        beganAtMs.lastIndex { $0 <= atMs }
    }

    /// The moments that belong to the stay at `index` of `beganAtMs`: from its beginning to the next one's, or on
    /// without end for the last.
    public static func span(of index: Int, beganAtMs: [Int64]) -> Range<Int64> {
        beganAtMs[index]..<(index + 1 < beganAtMs.count ? beganAtMs[index + 1] : Int64.max)
    }
}
