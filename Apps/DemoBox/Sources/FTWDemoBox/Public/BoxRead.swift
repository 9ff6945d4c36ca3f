import FTWBoxProtocol

/// A read the app asks the box, by what it reads: what a scenario names to make one read fail
/// (`box fail chargers timeout`) rather than slow the whole relay. `hello`, the session's greeting, fails the same
/// ways, so the hello deadline and a booting box can be played too.
public enum BoxRead: String, Sendable, Hashable, CaseIterable, Codable {
    /// `GET /api/loadpoints`.
    case chargers
    /// `GET /api/planner/preferences`.
    case prefs
    /// `plan.get`.
    case plan
    /// `GET /api/status`.
    case status
    /// `price.get`.
    case prices
    /// `hist.query`.
    case history
    /// `hello` (no id): `busy` answers that the box is booting, `refused` is a session-wide `E_UNKNOWN_OP`.
    case hello

    /// The read a request frame makes; nil for anything else (a command, a write, another route).
    init?(_ envelope: Envelope) {
        switch envelope.type {
        case Plan.requestWireType: self = .plan
        case PriceGet.wireType: self = .prices
        case HistQuery.wireType: self = .history
        case Hello.wireType: self = .hello
        case APIRequest.wireType:
            guard envelope.body?["method"]?.string == "GET",
                let read = Self.routes[envelope.body?["path"]?.string ?? ""]
            else { return nil }
            self = read
        default: return nil
        }
    }

    private static let routes: [String: BoxRead] = [
        "/api/loadpoints": .chargers, "/api/planner/preferences": .prefs, "/api/status": .status,
    ]
}
