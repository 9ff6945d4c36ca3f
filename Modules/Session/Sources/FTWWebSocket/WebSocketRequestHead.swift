/// What a server learns from a client's valid Upgrade request, so a handler can route or refuse it.
public struct WebSocketRequestHead: Sendable, Hashable {
    /// The request target, starting with `/` (query included), e.g. `/r/493828/<handle>/app`.
    public let path: String
    /// The request's header fields, names lowercased; repeated fields are joined with ", ".
    public let headers: [String: String]
    /// The client's `Sec-WebSocket-Key`, which the accept answer must hash.
    let key: String
}
