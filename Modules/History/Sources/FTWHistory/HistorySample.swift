public import FTWBoxProtocol

/// What one five-minute step of one series shows: a reading, or why there is none.
///
/// A chart must tell "the box has no reading here" from "the reading has not reached the phone yet" from "nothing
/// was asked yet": each reads differently to a person, and none of them is zero.
public enum HistorySample: Sendable, Hashable {
    /// The mean power over the step, in W (zero is a real reading).
    case value(Int32)
    /// A hole the box confirms: MISSING inside a tile the box closed, or before the newest value of the tile still
    /// filling.
    case missing
    /// Past the newest value of the tile still filling: the reading is on its way, not missing.
    case onTheirWay
    /// A range the box named in `hist.end` as one it cannot serve (`no_data`, `evicted`, `box_down`).
    case gap(GapReason)
    /// The model holds no tile for this step yet.
    case absent
}
