public import FTWSessionInterface

/// The planner's preferences, `GET /api/planner/preferences`: the few fields the app shows, and the whole answer as
/// the box sent it, so a screen can show more without a new read.
///
/// Shipping boxes carry no such route and answer `E_UNKNOWN_OP`; the model then hides the feature.
public struct PlannerPrefs: SiteReading, Hashable {
    /// The planner's preferences, read.
    public static let kind = SiteReadKind.prefs

    /// The planner's strategy (`mode`), when the box says.
    public var mode: String?
    /// The battery reserve the planner keeps, in percent (`reserve_soc_pct`), when the box says.
    public var reserveSocPct: Double?
    /// The whole answer, as the box sent it.
    public var json: String

    /// Makes preferences.
    public init(mode: String?, reserveSocPct: Double?, json: String) {
        self.mode = mode
        self.reserveSocPct = reserveSocPct
        self.json = json
    }

    /// Reads the box's answer; a field the app reads that holds another kind reads as absent.
    ///
    /// - Throws: ``SiteError`` `.unexpectedStatus`, or `.undecodable` when the body is not a JSON object.
    public init(response: APIResponse) throws(SiteError) {
        let object = try JSONValue.object(of: response, path: Self.kind.path)
        mode = try? object.text("mode", in: Self.kind.path)
        reserveSocPct = try? object.number("reserve_soc_pct", in: Self.kind.path)
        json = String(decoding: response.body, as: UTF8.self)
    }
}
