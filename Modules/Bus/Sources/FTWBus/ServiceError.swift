/// Why a ``ClientService`` refused what it was asked: the one error of the service shape.
public enum ServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// ``ClientService/run()`` was called on a service that runs or ran already; the first run goes on untouched.
    /// The associated value is the service's name.
    case alreadyRunning(String)

    /// One line naming the service and what was wrong.
    public var description: String {
        switch self {
        case .alreadyRunning(let name):
            "\(name) was asked to run a second time: a service runs once, and the first run goes on"
        }
    }
}
