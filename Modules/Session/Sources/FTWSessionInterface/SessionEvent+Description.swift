import FTWBoxProtocol

extension SessionEvent: CustomStringConvertible {
    /// One line a person reads: what happened, with counts and ids rather than whole bodies.
    public var description: String {
        switch self {
        case .connection(let state): "connection \(state)"
        case .carrierClosed(let code, let reason): "carrier closed \(code)\(reason.isEmpty ? "" : " \(reason)")"
        case .telemetry(let frame): "telemetry \(frame)"
        case .liveness(.live(let sinceMs)): "live since Unix ms \(sinceMs)"
        case .liveness(.stale(let sinceMs, let lastBeatMs)):
            "stale since Unix ms \(sinceMs) (last beat \(lastBeatMs.map { "at Unix ms \($0)" } ?? "none"))"
        case .streamReturned(let connection): "stream returned on connection \(connection)"
        case .streamLost(let reason): "stream lost: \(reason)"
        case .planPushed(let plan): "plan pushed: \(plan)"
        case .asked(let record): "asked \(record)"
        case .boxError(let error): "box error \(Message.error(error))"
        case .terminated(let reason): "terminated: \(reason)"
        }
    }
}
