import FTWBoxProtocol
import FTWBus

extension ConnectionState: CustomStringConvertible {
    /// One line for logs and status lines: the stage, with the box and protocol once streaming, the reason once
    /// closed.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .dialing(let attempt): "dialing (attempt \(attempt))"
        case .awaitingBox(let arrival):
            "awaiting the box: the relay moves it to this hour's room between Unix ms \(arrival.movesAtMs) and"
                + " \(arrival.dueByMs)"
        case .handshaking: "handshaking"
        case .streaming(let hello): "streaming (box \(hello.box.id), protocol \(hello.proto), \(hello.mode))"
        case .backingOff(let wait):
            "backing off: attempt \(wait.attempt) at Unix ms \(wait.nextTryAtMs), because \(wait.because.message)"
        case .closed(let reason): "closed: \(reason.message)"
        }
    }
}
