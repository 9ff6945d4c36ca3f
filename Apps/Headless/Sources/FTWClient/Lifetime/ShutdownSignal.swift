#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A signal on which a scoped client closes as its lifetime does, as swift-service-lifecycle's `ServiceGroup` takes
/// its `gracefulShutdownSignals`: Ctrl-C in a terminal (``interrupt``), a service manager's stop (``terminate``), a
/// closed terminal (``hangup``).
///
/// Without one, such a signal ends the process at once: the box sees a dropped socket (1006) and nothing is sealed.
/// Handed to ``HeadlessClient/run(shutdownSignals:isolation:_:)``, it closes the client instead (the box sees 1000,
/// the sealed files are written) and the run returns.
public struct ShutdownSignal: Sendable, Hashable, CustomStringConvertible {
    /// The signal's number.
    public let number: Int32
    /// Its name, such as `SIGINT`.
    private let name: String

    private init(_ number: Int32, _ name: String) {
        self.number = number
        self.name = name
    }

    /// `SIGINT`: Ctrl-C in a terminal.
    public static let interrupt = ShutdownSignal(SIGINT, "SIGINT")
    /// `SIGTERM`: `kill`, a service manager's stop, a container's shutdown.
    public static let terminate = ShutdownSignal(SIGTERM, "SIGTERM")
    /// `SIGHUP`: the terminal the program ran in was closed.
    public static let hangup = ShutdownSignal(SIGHUP, "SIGHUP")

    /// The signal's name, such as `SIGINT`.
    public var description: String { name }
}
