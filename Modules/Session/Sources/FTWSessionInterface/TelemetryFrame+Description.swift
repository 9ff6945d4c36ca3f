import FTWBoxProtocol

extension TelemetryFrame: CustomStringConvertible {
    /// One line: the message in short, its connection and its arrival (wall clock, Unix ms).
    public var description: String {
        let message: String =
            switch self.message {
            case .snap(let snap): snap.description
            case .delta(let delta, let truncated): delta.description + (truncated ? ", truncated" : "")
            case .tick(let tick): "tick seq \(tick.seq) uptime \(tick.uptimeMs) ms"
            }
        return "\(message) on connection \(connection) at \(arrivalMs)"
    }
}
