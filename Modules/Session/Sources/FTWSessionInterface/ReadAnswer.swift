public import FTWBoxProtocol

/// The box's answer to one ``ReadRequest``.
public enum ReadAnswer: Sendable, Hashable {
    /// The answer of the API passthrough: a handler ran and this is its status and body.
    case api(APIResponse)
    /// The plan.
    case plan(Plan)
    /// The price window.
    case prices(Price)
    /// Every tile the box sent, in arrival order, and its closing `hist.end`.
    case history(HistoryAnswer)
}

/// The whole answer to a `hist.query`: the chunks (one tile each) and the end that closed it.
public struct HistoryAnswer: Sendable, Hashable {
    /// The tiles in the order they arrived.
    public var chunks: [HistChunk]
    /// The closing message: the resolution served and the gaps the box names.
    public var end: HistEnd

    /// Makes a history answer.
    public init(chunks: [HistChunk], end: HistEnd) {
        self.chunks = chunks
        self.end = end
    }
}

/// The answer of the API passthrough: `api.head`, the body from the `api.chunk`s, and `api.end`.
public struct APIResponse: Sendable, Hashable {
    /// The HTTP status the box's handler answered with (a 403 or 500 is an answer, not a session error).
    public var status: Int
    /// The headers the box passes on (`Content-Type`, `ETag`, `Last-Modified`).
    public var headers: [String: String]
    /// The body, reassembled from the chunks in order.
    public var body: [UInt8]

    /// Makes an API response.
    public init(status: Int, headers: [String: String] = [:], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
