public import FTWBoxProtocol

/// One read the session can send: what the models ask the box for.
///
/// Two equal reads while one is queued or on the wire share it: one request frame, every caller answered.
public enum ReadRequest: Sendable, Hashable {
    /// A read through the API passthrough (`api.req`), such as `GET /api/loadpoints`.
    case api(APIRequest)
    /// The plan (`plan.get`).
    case plan
    /// The price window (`price.get`).
    case prices(PriceGet)
    /// History tiles (`hist.query`).
    case history(HistQuery)

    /// The wire type of the request frame this read sends.
    public var wireType: String {
        switch self {
        case .api: "api.req"
        case .plan: "plan.get"
        case .prices: "price.get"
        case .history: "hist.query"
        }
    }
}
