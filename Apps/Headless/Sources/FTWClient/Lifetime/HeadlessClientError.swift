/// Why a ``HeadlessClient`` refused what it was asked.
public enum HeadlessClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The client was closed (``HeadlessClient/close()``), or its close has begun: a closed client does not run or
    /// take a scene phase again. A new client on the same data folder is the next launch.
    case closed

    /// One line saying what happened and what to do instead.
    public var description: String {
        switch self {
        case .closed:
            "this client was closed: it does not run or follow the scene again; a new client on the same folder does"
        }
    }
}
