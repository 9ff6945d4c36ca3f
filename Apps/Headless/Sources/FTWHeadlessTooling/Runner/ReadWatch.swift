import FTWBus
import FTWCache
import FTWClient
import FTWHistory
import FTWSessionInterface

/// Follows one process's models and tells of every ask that failed: which model, under what name, why, and whether
/// the model still shows an older answer. What a scenario's report needs to name a failed read.
struct ReadWatch: Sendable {
    /// One failed ask.
    struct Failure: Sendable {
        var what: String
        var name: String
        var why: String
        var olderAnswerShown: Bool
    }

    let client: HeadlessClient

    /// Follows until the task is cancelled, calling `report` with each failure in the order they happen.
    func follow(_ report: @escaping @Sendable (Failure) async -> Void) async {
        let client = client
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await event in client.history.events.subscribe() {
                    guard case .failed(let name, let error) = event else { continue }
                    let shown = await client.history.window.columns.contains { column in
                        column.samples.contains { if case .value = $0 { true } else { false } }
                    }
                    await report(
                        Failure(what: "history", name: name.rawValue, why: "\(error)", olderAnswerShown: shown)
                    )
                }
            }
            group.addTask { await Self.follow("chargers", client.chargers, report) }
            group.addTask { await Self.follow("prefs", client.prefs, report) }
            group.addTask { await Self.follow("plan", client.plan, report) }
            group.addTask { await Self.follow("prices", client.prices, report) }
            group.addTask { await Self.follow("status", client.status, report) }
        }
    }

    private static func follow<Model: AskingModel>(
        _ what: String,
        _ model: Model,
        _ report: @escaping @Sendable (Failure) async -> Void
    ) async {
        for await event in model.events.subscribe() {
            guard case .failed(let name, let error) = event else { continue }
            let shown = await model.stored != nil
            await report(Failure(what: what, name: name.rawValue, why: "\(error)", olderAnswerShown: shown))
        }
    }
}
