import FTWBoxProtocol
import FTWSessionInterface

/// The answers the contract's box gives: the scripted box's default script, as the answer a caller gets.
enum ContractAnswers {
    static func answer(to request: ReadRequest) -> ReadAnswer {
        switch request {
        case .plan:
            .plan(ScriptedBox.samplePlan)
        case .prices:
            .prices(Price(zone: "SE3", slots: [], stale: false))
        case .history(let query):
            .history(HistoryAnswer(chunks: ScriptedBox.sampleTiles(for: query), end: HistEnd(resActual: query.res)))
        case .api(let request):
            .api(
                APIResponse(
                    status: 200,
                    headers: ["Content-Type": "application/json"],
                    body: Array("{\"path\":\"\(request.path)\"}".utf8)
                )
            )
        }
    }
}
