/// One request frame the box decoded: the box's side of the asks log, which a test compares with the client's.
public struct ReceivedRequest: Sendable, Hashable {
    /// The wire type: `plan.get`, `price.get`, `hist.query`, `api.req` or `cmd`.
    public var type: String
    /// The envelope's request id; nil when the frame carried none (a `cmd` from the Swift client).
    public var id: UInt32?
    /// When the box decoded it, on the wall clock (Unix ms).
    public var atMs: Int64
    /// The box session it arrived on, numbered from 1 in handshake order.
    public var connection: Int
    /// What it asked, for a person: `GET /api/loadpoints`, `5m 2026-12-01T10:00Z..2026-12-03T10:00Z have=3`.
    public var detail: String

    /// Makes a record.
    public init(type: String, id: UInt32?, atMs: Int64, connection: Int, detail: String) {
        self.type = type
        self.id = id
        self.atMs = atMs
        self.connection = connection
        self.detail = detail
    }
}
