/// One route of the box's HTTP API as the passthrough sees it: method, path pattern, tier, and what answers it.
struct APIRoute: Sendable, Hashable {
    /// The demo's handlers; refused tiers have none.
    enum Handler: Sendable, Hashable {
        case loadpoints, plannerPreferences, status, mpcPlan, energyDaily, devices
        case putSchedule, deleteSchedule, pairing, revokeDevice, changeDevice, replan
        case none
    }

    let method: String
    /// Path segments after `/api/`; `{id}` matches any one segment.
    let pattern: [String]
    let tier: APITier
    var op: String?
    /// A configure route that replaces a whole document, which the session never carries.
    var replacesAll = false
    let handler: Handler

    init(
        _ method: String,
        _ path: String,
        _ tier: APITier,
        _ handler: Handler = .none,
        op: String? = nil,
        replacesAll: Bool = false
    ) {
        self.method = method
        pattern = path.split(separator: "/").map(String.init)
        self.tier = tier
        self.op = op
        self.replacesAll = replacesAll
        self.handler = handler
    }

    /// The `{id}` segments of `segments` when this route claims `method` and them (HEAD rides on GET).
    func match(method: String, segments: [String]) -> [String]? {
        guard method == self.method || (method == "HEAD" && self.method == "GET"),
            segments.count == pattern.count
        else { return nil }
        var parameters: [String] = []
        for (segment, expected) in zip(segments, pattern) {
            if expected == "{id}" {
                parameters.append(segment)
            } else if segment != expected {
                return nil
            }
        }
        return parameters
    }
}
