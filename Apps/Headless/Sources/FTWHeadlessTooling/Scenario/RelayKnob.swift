/// A word of the relay during a scenario (protocol.md §8.3), on the simulated clock, judged by the same relay model
/// the wall-clock demo relay runs.
public enum RelayKnob: Sendable, Hashable, CustomStringConvertible {
    /// The epoch turns now: every stream closes with 4410 and the new epoch.
    case rotate
    /// The relay's clock reads this many hours off: joins under the wall clock's epoch get 4409 with the relay's.
    case skew(hours: Int)
    /// The household's join allowance (30 per 60 s window) is spent: joins get 4429 `slow down` until it turns.
    case slowDown
    /// The relay's proxy restarts: every socket closes with 1001, and the box rejoins after its backoff.
    case restart

    /// The word as a scenario writes it after `relay`.
    public var description: String {
        switch self {
        case .rotate: "rotate"
        case .skew(let hours): "skew \(hours)"
        case .slowDown: "slow-down"
        case .restart: "restart"
        }
    }
}
