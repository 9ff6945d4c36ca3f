import FTWBus
public import FTWSessionInterface

/// The site's chargers, `GET /api/loadpoints`: `{"loadpoints": [{id, driver_name, plugged_in, current_power_w,
/// …}]}` (a bare list is read too).
public struct ChargerList: SiteReading, Hashable {
    /// The chargers, read.
    public static let kind = SiteReadKind.chargers

    /// The chargers in the box's order.
    public var chargers: [Charger]

    /// Makes a list.
    public init(chargers: [Charger]) {
        self.chargers = chargers
    }

    /// Reads the box's answer.
    ///
    /// - Throws: ``SiteError`` `.unexpectedStatus`, or `.undecodable` when the body is not a list of loadpoints
    ///   each with an id, or a field has the wrong kind.
    public init(response: APIResponse) throws(SiteError) {
        let path = Self.kind.path
        let items: [JSONValue]
        switch try JSONValue.document(of: response, path: path) {
        case .array(let list): items = list
        case .object(let object):
            guard case .array(let list) = object["loadpoints"] else {
                throw SiteError(.undecodable, "\(path) has no loadpoints list")
            }
            items = list
        default: throw SiteError(.undecodable, "\(path) is neither a list nor an object")
        }
        var chargers: [Charger] = []
        for (index, item) in items.enumerated() {
            guard case .object(let fields) = item else {
                throw SiteError(.undecodable, "loadpoint \(index) is no object")
            }
            chargers.append(try Self.charger(fields, at: "loadpoints[\(index)]"))
        }
        self.chargers = chargers
    }

    private static func charger(_ fields: [String: JSONValue], at path: String) throws(SiteError) -> Charger {
        let id: String
        if let text = try? fields.text("id", in: path) {
            id = text
        } else if let number = try fields.number("id", in: path), let whole = Int64(exactly: number) {
            id = String(whole)
        } else {
            throw SiteError(.undecodable, "\(path) has no id")
        }
        var powerW: Int64?
        if let watts = try fields.number("current_power_w", "power_w", in: path) {
            // Checked before converting: a number too large for Int64 would trap.
            guard watts.isFinite, abs(watts) < 1e12 else { throw SiteError(.undecodable, "\(path) draws \(watts) W") }
            powerW = Int64(watts.rounded())
        }
        return Charger(
            id: id,
            name: try fields.text("name", "title", "driver_name", in: path) ?? id,
            powerW: powerW,
            connected: try fields.flag("plugged_in", "connected", in: path) ?? false,
            charging: try fields.flag("charging", in: path) ?? ((powerW ?? 0) > Charger.chargingThresholdW)
        )
    }
}
