/// Something that may make a model ask: a person looking, the stream, or a pull to refresh.
public enum AskTrigger: Sendable, Hashable {
    /// A view that shows the model appeared: someone starts looking.
    case viewAppeared
    /// A view that showed the model went away.
    case viewGone
    /// A pull to refresh: a person's ask, which always sends.
    case refresh
}
