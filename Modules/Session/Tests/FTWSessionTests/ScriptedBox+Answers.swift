import FTWBoxProtocol

extension ScriptedBox {
    /// The box's answers when a test says nothing else: a plan, a price window, two history tiles, a small JSON body,
    /// an applied command.
    static let defaultScript: Script = { message, id in
        switch message {
        case .planGet:
            return [Reply(message: .plan(samplePlan), id: id)]
        case .priceGet:
            return [Reply(message: .price(Price(zone: "SE3", slots: [], stale: false)), id: id)]
        case .histQuery(let query):
            return historyReplies(for: query, id: id)
        case .apiReq(let request):
            return apiReplies(body: Array("{\"path\":\"\(request.path)\"}".utf8), id: id)
        case .cmd(let command):
            return [
                Reply(
                    message: .cmdAck(CommandAck(cmdId: command.cmdId, leaseId: "lease", expiresAtMs: 900_000)),
                    id: nil
                ),
                Reply(message: .cmdResult(CommandResult(cmdId: command.cmdId, state: .applied)), id: nil),
            ]
        default:
            return []
        }
    }

    /// The default answers, except none at all to `silenced`.
    static func silent(on silenced: Message) -> Script {
        { message, id in message == silenced ? [] : defaultScript(message, id) }
    }

    /// Makes a box that keeps its answers until ``answerHeld()``.
    static let holdsAnswers: @Sendable (ScriptedBox) async -> Void = { await $0.configure { $0.holding = true } }

    static let samplePlan = Plan(rev: 3, uptimeMs: 5_000, slots: [], stale: false)

    /// `api.head` 200, the body in one chunk, `api.end`.
    static func apiReplies(body: [UInt8], id: UInt32?) -> [Reply] {
        [
            Reply(message: .apiHead(APIHead(status: 200, headers: ["Content-Type": "application/json"])), id: id),
            Reply(message: .apiChunk(APIChunk(seq: 0, data: body)), id: id),
            Reply(message: .apiEnd(APIEnd(bytes: Int64(body.count))), id: id),
        ]
    }

    /// Two tiles of the query's window and the end.
    static func historyReplies(for query: HistQuery, id: UInt32?) -> [Reply] {
        sampleTiles(for: query).map { Reply(message: .histChunk($0), id: id) } + [
            Reply(message: .histEnd(HistEnd(resActual: query.res)), id: id)
        ]
    }

    static func sampleTiles(for query: HistQuery) -> [HistChunk] {
        (0..<2).map { index in
            HistChunk(
                tileId: "tile-\(index)",
                etag: "etag-\(index)",
                res: query.res,
                startMs: query.fromMs + Int64(index) * 43_200_000,
                stepMs: 300_000,
                series: query.series,
                data: [UInt8](repeating: UInt8(index), count: 8),
                partial: index == 1
            )
        }
    }
}
