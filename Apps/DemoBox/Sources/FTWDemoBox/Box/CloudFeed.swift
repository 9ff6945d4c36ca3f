/// The simulated cloud's forwarding of the home's readings: a message whenever a live field's value changes
/// (checked at each pulse), and a heartbeat when nothing changed for a while; fields whose source is not live are
/// left out.
struct CloudFeed: Sendable {
    private var subscribers: [AsyncStream<CloudMessage>.Continuation] = []
    private var lastFields: [Int: Int64]?
    private var lastSentAt: Duration?

    /// Whether anyone listens (a listener whose stream ended counts until the next message finds it gone).
    var isFollowed: Bool { !subscribers.isEmpty }

    /// A new listener; each gets its own stream.
    mutating func subscribe() -> AsyncStream<CloudMessage> {
        let (stream, continuation) = AsyncStream.makeStream(of: CloudMessage.self)
        subscribers.append(continuation)
        return stream
    }

    /// One pulse: sends the live fields when one changed, or a heartbeat once `heartbeat` passed without a message.
    mutating func pulse(liveFields: [Int: Int64], wallMs: Int64, elapsed: Duration, heartbeat: Duration) {
        let changed = lastFields.map { last in liveFields.contains { last[$0.key] != $0.value } } ?? true
        let due = lastSentAt.map { elapsed - $0 >= heartbeat } ?? true
        guard changed || due else { return }
        lastFields = liveFields
        lastSentAt = elapsed
        let message = CloudMessage(sentAtMs: wallMs, fields: liveFields, isHeartbeat: !changed)
        subscribers.removeAll { continuation in
            if case .terminated = continuation.yield(message) { return true }
            return false
        }
    }
}
