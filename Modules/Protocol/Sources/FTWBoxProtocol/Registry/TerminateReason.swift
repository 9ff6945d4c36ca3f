/// Why the box ended the session (`session.terminate.reason`, §2.12).
public struct TerminateReason: WireName {
    /// The name as it appears on the wire.
    public let rawValue: String

    /// Wraps a name as it appears on the wire.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The grant was revoked; the only reason the shipping box sends.
    public static let revoked: TerminateReason = "revoked"

    /// The rendezvous epoch changed.
    public static let epochChanged: TerminateReason = "epoch_changed"

    /// The box is shutting down.
    public static let boxShutdown: TerminateReason = "box_shutdown"

    /// Another session took this one's place; also what an unknown reason means.
    public static let superseded: TerminateReason = "superseded"

    /// The reason as the app acts on it: an unknown reason counts as ``superseded``, as the Swift client does.
    public var known: TerminateReason {
        [.revoked, .epochChanged, .boxShutdown, .superseded].contains(self) ? self : .superseded
    }
}
