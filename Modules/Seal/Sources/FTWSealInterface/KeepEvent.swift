/// What a model that seals its own file tells its observers on its bus, besides what it shows: a write that did not
/// happen, so an app can say that what the model holds will not survive a kill.
import FTWBus

public enum KeepEvent: Sendable, Hashable, CustomStringConvertible {
    /// The file could not be sealed; the model keeps what it holds in memory, and the previous file, if any, stays.
    case notKept(SealError)

    /// One line for a person: what was not kept and why.
    public var description: String {
        switch self {
        case .notKept(let error): "not kept, nothing on disk changed: \(error.message)"
        }
    }
}
