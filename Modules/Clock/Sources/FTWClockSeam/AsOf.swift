/// When a shown value was true, on the wall clock, and what that moment rests on: every value the client shows
/// carries one, so its age is honest at every instant.
///
/// The age grows with the wall clock while nothing new arrives (``ageMs(atWallMs:)`` is now minus the moment, never
/// clamped to zero, never reset by a connection that says nothing), and a moment the client cannot place is
/// ``Basis/unknown``, never "just now".
public struct AsOf: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What a moment rests on.
    public enum Basis: String, Sendable, Hashable, Codable {
        /// The box's uptime in a live frame, placed on the wall clock by the smallest clock gap seen on the
        /// connection (cache.md §4): when the box took the reading.
        case boxUptime = "box_uptime"
        /// An answer to a read on this run: when it arrived, on the phone's wall clock.
        case answered
        /// The cloud feed's send time (wall clock, the cloud's): a reading the cloud forwarded.
        case cloudSendTime = "cloud_send_time"
        /// A sealed file of an earlier run: the moment it recorded (when the snapshot was taken, the read asked).
        case sealedFile = "sealed_file"
        /// The moment cannot be told: a stamp from another boot of the box (its uptime went back), or a source that
        /// has not answered since the box started.
        case unknown

        /// The basis in words: `box uptime`, `answered`, `sealed file`, `unknown`.
        public var words: String {
            switch self {
            case .boxUptime: "box uptime"
            case .answered: "answered"
            case .cloudSendTime: "cloud send time"
            case .sealedFile: "sealed file"
            case .unknown: "unknown"
            }
        }
    }

    /// When the value was true, Unix ms; nil when ``basis`` is ``Basis/unknown``.
    public var moment: Int64?
    /// What the moment rests on.
    public var basis: Basis

    /// A moment on `basis`; `.unknown` whatever `moment` says.
    public init(moment: Int64?, basis: Basis) {
        self.moment = basis == .unknown ? nil : moment
        self.basis = moment == nil ? .unknown : basis
    }

    /// A value whose moment cannot be told.
    public static let unknown = AsOf(moment: nil, basis: .unknown)

    /// How old the value is at `nowMs` on the wall clock: now minus its moment, unclamped; nil when unknown.
    public func ageMs(atWallMs nowMs: Int64) -> Int64? {
        moment.map { nowMs - $0 }
    }

    /// `10:02:03.250 UTC (box uptime)`, `unknown`: the one way the client prints an instant with its basis.
    public var description: String {
        guard let moment else { return "unknown" }
        return "\(Self.utc(moment)) (\(basis.words))"
    }

    /// `HH:MM:SS.mmm UTC` (or `HH:MM:SS UTC` without `milliseconds`): the one way the client's texts print an
    /// instant, the same on every machine.
    public static func utc(_ ms: Int64, milliseconds: Bool = true) -> String {
        let dayMs = ((ms % 86_400_000) + 86_400_000) % 86_400_000
        func digits(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let second = dayMs / 1000
        return "\(digits(second / 3600, 2)):\(digits(second / 60 % 60, 2)):\(digits(second % 60, 2))"
            + (milliseconds ? ".\(digits(dayMs % 1000, 3))" : "") + " UTC"
    }
}
