/// One message of the cloud feed: the home's live readings forwarded by a cloud service, the second live source.
///
/// The cloud sends a reading when a value changes and a heartbeat every H seconds (30 s by default) when nothing
/// did. Every message carries the current value of every field whose own reading is live, so a field missing from
/// a message was not live when it was sent and records nothing. Each is stamped with the cloud's send time, which is
/// where its points land on the chart.
public struct CloudReading: Sendable, Hashable {
    /// When the cloud sent it, on the wall clock (Unix ms).
    public var sentAtMs: Int64
    /// The live fields' values, by field id.
    public var fields: [Int: Int64]
    /// True for the periodic "nothing changed" message; it records like any reading and keeps the run alive.
    public var isHeartbeat: Bool

    /// Makes a cloud message.
    public init(sentAtMs: Int64, fields: [Int: Int64], isHeartbeat: Bool) {
        self.sentAtMs = sentAtMs
        self.fields = fields
        self.isHeartbeat = isHeartbeat
    }
}
