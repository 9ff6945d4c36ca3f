import FTWBoxProtocol
public import FTWSessionInterface

extension AskInput {
    /// What the session's event means to the age-keyed rule; nil for events it does not weigh.
    public init?(_ event: SessionEvent) {
        switch event {
        case .streamReturned(let connection): self = .streamReturned(connection: connection)
        case .telemetry(let frame): self = .liveFrame(connection: frame.connection)
        case .connection(.streaming(let hello)): self = .hello(build: hello.box.build)
        case .streamLost, .terminated: self = .streamLost
        default: return nil
        }
    }
}
