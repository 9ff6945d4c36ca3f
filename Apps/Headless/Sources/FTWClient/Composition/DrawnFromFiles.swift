import FTWCache
import FTWHistory
import FTWSite
import FTWTrace

/// What the sealed files drew at launch, before anything connected: the second open's promise, counted.
public struct DrawnFromFiles: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Live-trace points restored, over every field.
    public var tracePoints: Int
    /// Fields with restored trace points.
    public var traceFields: Int
    /// History steps with a reading, over every series.
    public var historySteps: Int
    /// Whether each small model showed an answer: chargers, prefs, plan, prices, status, snapshot, home.
    public var models: [String: Bool]

    /// Makes a record, as a report decoded elsewhere or a test states it.
    public init(tracePoints: Int, traceFields: Int, historySteps: Int, models: [String: Bool]) {
        self.tracePoints = tracePoints
        self.traceFields = traceFields
        self.historySteps = historySteps
        self.models = models
    }

    /// Whether anything at all was drawn.
    public var isEmpty: Bool { tracePoints == 0 && historySteps == 0 && !models.values.contains(true) }

    /// What was drawn, in one line a person reads.
    public var description: String {
        guard !isEmpty else { return "nothing (no sealed files yet)" }
        let shown = models.filter(\.value).keys.sorted().joined(separator: ", ")
        return "trace \(tracePoints) points over \(traceFields) fields, history \(historySteps) steps, "
            + "models: \(shown.isEmpty ? "none" : shown)"
    }

    /// Reads what `client`'s models hold right after their restore.
    public static func read(from client: HeadlessClient) async -> DrawnFromFiles {
        var points = 0
        var fields = 0
        for field in await client.trace.fields {
            let count = await client.trace.points(field: field).count
            points += count
            fields += count > 0 ? 1 : 0
        }
        let window = await client.history.window
        let steps = window.columns.reduce(0) { $0 + $1.readings }
        let models: [String: Bool] = [
            "chargers": await client.chargers.stored != nil,
            "prefs": await client.prefs.stored != nil,
            "plan": await client.plan.stored != nil,
            "prices": await client.prices.stored != nil,
            "status": await client.status.stored != nil,
            "snapshot": await client.snapshot.shown != nil,
            "home": client.home.identity != nil,
        ]
        return DrawnFromFiles(tracePoints: points, traceFields: fields, historySteps: steps, models: models)
    }
}
