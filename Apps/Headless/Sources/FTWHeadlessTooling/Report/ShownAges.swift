public import FTWClient

/// What a person saw at one moment of a stay (a `look` step, and each stay's end): every value with when it was true
/// and what that rests on, and the connection's status. The age of each is ``atMs`` minus its moment.
public struct ShownAges: Sendable, Hashable, Codable {
    /// When, Unix ms.
    public var atMs: Int64
    /// The connection's status as ``HeadlessClient/observeConnection()`` says it (`live since 10:02:03 UTC`, …).
    public var connection: String
    /// The home screen's readings, by field name.
    public var fields: [String: AsOf]
    /// Each model's answer (`chargers`, `plan`, `prices`, `status`, `prefs`), the history window's newest value
    /// (`history`), and each traced field's newest run (`trace battery_w`).
    public var models: [String: AsOf]

    /// Makes a record.
    public init(atMs: Int64, connection: String, fields: [String: AsOf], models: [String: AsOf]) {
        self.atMs = atMs
        self.connection = connection
        self.fields = fields
        self.models = models
    }

    /// Reads what `client` shows at `atMs`.
    static func read(from client: HeadlessClient, atMs: Int64) async -> ShownAges {
        let screen = await HomeScreen.read(from: client)
        let status = ConnectionStatus(
            state: await client.session.connectionState,
            liveness: await client.session.liveness
        )
        var models: [String: AsOf] = [
            "chargers": screen.chargersAsOf,
            "plan": screen.planAsOf,
            "prices": screen.pricesAsOf,
            "status": await client.status.shown.asOf,
            "prefs": await client.prefs.shown.asOf,
            "history": await client.history.window.asOf,
        ]
        for field in TraceField.traced {
            let trace = await client.trace.trace(of: field)
            guard let newest = trace.samples.last else { continue }
            models["trace \(field.name)"] = trace.asOf(run: newest.run)
        }
        return ShownAges(
            atMs: atMs,
            connection: status.description,
            fields: Dictionary(screen.readings.map { ($0.name, $0.asOf) }, uniquingKeysWith: { first, _ in first }),
            models: models
        )
    }

    /// One line per value, `grid_w 10:02:03.000 UTC (box uptime), 2.0 s old`, by name.
    var lines: [String] {
        func line(_ name: String, _ asOf: AsOf) -> String {
            let age = asOf.ageMs(atWallMs: atMs).map { ", \(Self.seconds($0)) old" } ?? ""
            return "\(name) \(asOf)\(age)"
        }
        return fields.sorted { $0.key < $1.key }.map { line($0.key, $0.value) }
            + models.sorted { $0.key < $1.key }.filter { $0.value.moment != nil }.map { line($0.key, $0.value) }
    }

    private static func seconds(_ ms: Int64) -> String {
        let tenths = ms / 100
        return "\(tenths / 10).\(abs(tenths % 10)) s"
    }
}
