public import FTWBoxProtocol

/// One read paired with the type of its answer: `.plan` answers a `Plan`, `.prices(_:)` a `Price`,
/// `.history(_:)` a `HistoryAnswer`, `.api(_:)` an `APIResponse`.
///
/// The pairing is made here once, so a model never re-matches an answer against the request it sent.
public struct Read<Answer: Sendable>: Sendable {
    /// What is sent: equal requests share one frame.
    public let request: ReadRequest
    let answer: @Sendable (ReadAnswer) -> Answer?

    private init(_ request: ReadRequest, answer: @escaping @Sendable (ReadAnswer) -> Answer?) {
        self.request = request
        self.answer = answer
    }

    /// The plan (`plan.get`).
    public static var plan: Read<Plan> {
        Read<Plan>(.plan) { answer in
            guard case .plan(let plan) = answer else { return nil }
            return plan
        }
    }

    /// The price window (`price.get`).
    public static func prices(_ window: PriceGet) -> Read<Price> {
        Read<Price>(.prices(window)) { answer in
            guard case .prices(let price) = answer else { return nil }
            return price
        }
    }

    /// History tiles (`hist.query`): every tile and the closing `hist.end`.
    public static func history(_ query: HistQuery) -> Read<HistoryAnswer> {
        Read<HistoryAnswer>(.history(query)) { answer in
            guard case .history(let history) = answer else { return nil }
            return history
        }
    }

    /// A read through the API passthrough (`api.req`): the handler's status, headers and body.
    public static func api(_ request: APIRequest) -> Read<APIResponse> {
        Read<APIResponse>(.api(request)) { answer in
            guard case .api(let response) = answer else { return nil }
            return response
        }
    }
}
