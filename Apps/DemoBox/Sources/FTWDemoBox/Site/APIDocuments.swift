/// The JSON documents the demo's routes answer with, shaped like the box's own (snake_case keys).
enum APIDocuments {
    /// One charger, `GET /api/loadpoints`.
    struct Loadpoint: Codable, Sendable {
        var id: String
        var name: String
        var maxPowerW: Int
        var powerW: Int64
        var connected: Bool
        var hold: Hold?
        var boostUntilMs: Int64?
        var schedule: ChargeGoal?

        enum CodingKeys: String, CodingKey {
            case id, name, connected, hold, schedule
            case maxPowerW = "max_power_w"
            case powerW = "power_w"
            case boostUntilMs = "boost_until_ms"
        }
    }

    /// A charger's hold.
    struct Hold: Codable, Sendable {
        var powerW: Double
        var untilUptimeMs: Int64?

        enum CodingKeys: String, CodingKey {
            case powerW = "power_w"
            case untilUptimeMs = "until_uptime_ms"
        }
    }

    /// A charge goal, `PUT /api/loadpoints/{id}/schedule`.
    struct ChargeGoal: Codable, Sendable, Hashable {
        var soc: Double?
        var timeOfDayMinUTC: Int?
        var recurring: Bool?
        var days: [Int]?
        var surplusUnlockBatSoc: Double?

        enum CodingKeys: String, CodingKey {
            case soc, recurring, days
            case timeOfDayMinUTC = "time_of_day_min_utc"
            case surplusUnlockBatSoc = "surplus_unlock_bat_soc"
        }
    }

    /// The planner's preferences, `GET /api/planner/preferences` (a demo-only read).
    struct PlannerPreferences: Codable, Sendable {
        var reserveSocPct = 20
        var allowGridCharging = true
        var allowExport = true
        var cheapShare = 0.85
        var expensiveShare = 1.1

        enum CodingKeys: String, CodingKey {
            case reserveSocPct = "reserve_soc_pct"
            case allowGridCharging = "allow_grid_charging"
            case allowExport = "allow_export"
            case cheapShare = "cheap_share"
            case expensiveShare = "expensive_share"
        }
    }

    /// The site at a glance, `GET /api/status`.
    struct Status: Codable, Sendable {
        var mode: String
        var uptimeMs: Int64
        var fields: [String: Int64]
        var drivers: [String: String]

        enum CodingKeys: String, CodingKey {
            case mode, fields, drivers
            case uptimeMs = "uptime_ms"
        }
    }

    /// The planner's plan, `GET /api/mpc/plan`.
    struct MPCPlan: Codable, Sendable {
        var rev: UInt64
        var generatedAtMs: Int64
        var slots: [MPCSlot]

        enum CodingKeys: String, CodingKey {
            case rev, slots
            case generatedAtMs = "generated_at_ms"
        }
    }

    /// One slot of the planner's plan.
    struct MPCSlot: Codable, Sendable {
        var startMs: Int64
        var endMs: Int64
        var durationMs: Int64
        var batteryW: Int64
        var gridW: Int64
        var priceMinor: Int64?
        var reason: String
        var batteryAction: String

        enum CodingKeys: String, CodingKey {
            case reason
            case startMs = "start_ms"
            case endMs = "end_ms"
            case durationMs = "duration_ms"
            case batteryW = "battery_w"
            case gridW = "grid_w"
            case priceMinor = "price_minor"
            case batteryAction = "battery_action"
        }
    }

    /// One day's energy, `GET /api/energy/daily`.
    struct EnergyDay: Codable, Sendable {
        var dayStartMs: Int64
        var importKWh: Double
        var exportKWh: Double
        var pvKWh: Double
        var loadKWh: Double
        var batteryChargeKWh: Double
        var batteryDischargeKWh: Double
        var evKWh: Double

        enum CodingKeys: String, CodingKey {
            case dayStartMs = "day_start_ms"
            case importKWh = "import_kwh"
            case exportKWh = "export_kwh"
            case pvKWh = "pv_kwh"
            case loadKWh = "load_kwh"
            case batteryChargeKWh = "battery_charge_kwh"
            case batteryDischargeKWh = "battery_discharge_kwh"
            case evKWh = "ev_kwh"
        }
    }

    /// One enrolled phone, `GET /api/app-link/devices`.
    struct Device: Codable, Sendable {
        var id: String
        var role: String
        var enrolledAtMs: Int64

        enum CodingKeys: String, CodingKey {
            case id, role
            case enrolledAtMs = "enrolled_at_ms"
        }
    }

    /// A viewer (or owner) invite, `POST /api/app-link/pairing`.
    struct Pairing: Codable, Sendable {
        var url: String
        var role: String
        var expiresAtMs: Int64

        enum CodingKeys: String, CodingKey {
            case url, role
            case expiresAtMs = "expires_at_ms"
        }
    }

    /// A role in a request body (`POST /api/app-link/pairing`, `PATCH /api/app-link/devices/{id}`).
    struct RoleBody: Codable, Sendable {
        var role: String
    }

    /// An HTTP error body: `{error, code?}`, as the box's app-link routes answer a refusal.
    struct Failure: Codable, Sendable {
        var error: String
        var code: String?
    }

    /// A plain acknowledgement.
    struct Done: Codable, Sendable {
        var ok = true
        var rev: UInt64?
    }
}
