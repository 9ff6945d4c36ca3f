/// Which end of a connection this endpoint is; it decides the masking rule in both directions.
///
/// RFC 6455 §5.1: a client masks every frame it sends and a server masks none, so a parser knows from its role
/// whether an incoming frame must be masked.
public enum WebSocketRole: Sendable, Hashable {
    /// The endpoint that opened the connection: sends masked frames, receives unmasked ones.
    case client
    /// The endpoint that accepted the connection: sends unmasked frames, receives masked ones.
    case server
}
