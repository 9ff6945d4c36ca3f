public import FTWBoxProtocol

/// One live telemetry frame as it arrived: what the trace records and stamps.
///
/// The arrival time is the phone's wall clock and the frame carries the box's uptime, so the trace can place box
/// time on the wall clock by the smallest gap seen on this connection; a new connection starts a new anchor.
public struct TelemetryFrame: Sendable, Hashable {
    /// The live message itself.
    public enum Message: Sendable, Hashable {
        /// The full picture: dictionary, every field, every source.
        case snap(Snap)
        /// The fields (and maybe sources) that changed; `truncated` when the box had to leave some out.
        case delta(Delta, truncated: Bool)
        /// Nothing changed; the box's uptime moved.
        case tick(Tick)
    }

    /// Which connection of this process it came on (1, 2, …): a new number is a new stamping anchor.
    public var connection: Int
    /// When it arrived, on the wall clock (Unix ms).
    public var arrivalMs: Int64
    /// The message.
    public var message: Message

    /// Makes a telemetry frame.
    public init(connection: Int, arrivalMs: Int64, message: Message) {
        self.connection = connection
        self.arrivalMs = arrivalMs
        self.message = message
    }

    /// The box's uptime in the frame, in ms.
    public var uptimeMs: Int64 {
        switch message {
        case .snap(let snap): snap.uptimeMs
        case .delta(let delta, _): delta.uptimeMs
        case .tick(let tick): tick.uptimeMs
        }
    }
}
