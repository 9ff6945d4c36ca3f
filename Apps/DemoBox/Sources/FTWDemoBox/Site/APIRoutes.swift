import FTWBoxProtocol

/// The part of the box's route table the demo carries, and the passthrough's request checks (§7.2-7.4).
enum APIRoutes {
    static let methods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]
    private static let maxPathLength = 1024

    /// Every route, with the tier the box declares for it.
    static func table(servesPlannerPrefs: Bool) -> [APIRoute] {
        var routes: [APIRoute] = [
            APIRoute("GET", "api/loadpoints", .read, .loadpoints),
            APIRoute("GET", "api/status", .read, .status),
            APIRoute("GET", "api/mpc/plan", .read, .mpcPlan),
            APIRoute("GET", "api/energy/daily", .read, .energyDaily),
            APIRoute("GET", "api/app-link/devices", .read, .devices),
            APIRoute("PUT", "api/loadpoints/{id}/schedule", .configure, .putSchedule),
            APIRoute("DELETE", "api/loadpoints/{id}/schedule", .configure, .deleteSchedule),
            APIRoute("POST", "api/app-link/pairing", .configure, .pairing),
            APIRoute("DELETE", "api/app-link/devices/{id}", .configure, .revokeDevice),
            APIRoute("PATCH", "api/app-link/devices/{id}", .configure, .changeDevice),
            APIRoute("POST", "api/mpc/replan", .configure, .replan),
            APIRoute("POST", "api/config", .configure, replacesAll: true),
            APIRoute("GET", "api/config", .local),
            APIRoute("POST", "api/mode", .actuate, op: CommandOp.siteModeSet.rawValue),
            APIRoute("POST", "api/battery/manual_hold", .actuate),
            APIRoute("POST", "api/pv/manual_hold", .actuate),
            APIRoute("POST", "api/ev/command", .actuate),
        ]
        for action in ["manual_hold", "battery_boost"] {
            routes.append(APIRoute("POST", "api/loadpoints/{id}/\(action)", .actuate))
            routes.append(APIRoute("DELETE", "api/loadpoints/{id}/\(action)", .actuate))
        }
        for action in ["soc", "target", "force_start"] {
            routes.append(APIRoute("POST", "api/loadpoints/{id}/\(action)", .actuate))
        }
        if servesPlannerPrefs {
            routes.append(APIRoute("GET", "api/planner/preferences", .read, .plannerPreferences))
        }
        return routes
    }

    /// The route claiming `method` and `path`, with its `{id}` values; nil when no handler would (the path would
    /// fall through to the box's static files, which the session never serves).
    static func route(method: String, path: String, servesPlannerPrefs: Bool) -> (APIRoute, [String])? {
        let segments = path.split(separator: "/").map(String.init)
        for route in table(servesPlannerPrefs: servesPlannerPrefs) {
            if let parameters = route.match(method: method, segments: segments) { return (route, parameters) }
        }
        return nil
    }

    /// The field the passthrough refuses the request for (`method`, `path` or `query`), or nil when it is well
    /// formed.
    static func invalidField(_ request: APIRequest) -> String? {
        if !methods.contains(request.method) { return "method" }
        let path = request.path
        let badPath =
            !path.hasPrefix("/api/") || path.utf8.count > maxPathLength || path.contains("..")
            || path.contains("//") || path.contains("?") || path.contains("#")
            || path.unicodeScalars.contains { $0.properties.generalCategory == .control }
        if badPath { return "path" }
        let badKey = request.query.keys.contains { key in
            key.isEmpty || key.unicodeScalars.contains { $0 == "\0" || $0 == "\r" || $0 == "\n" }
        }
        return badKey ? "query" : nil
    }
}
