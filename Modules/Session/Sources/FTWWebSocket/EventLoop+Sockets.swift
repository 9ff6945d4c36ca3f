import FTWBus
import FTWSocketLoop

extension EventLoop {
    /// The loop a socket uses: `given`, or the process's shared loop when none was given.
    ///
    /// - Throws: ``WebSocketError/Code/io`` when the shared loop cannot be made (the process is out of descriptors).
    static func forSockets(_ given: EventLoop?) throws(WebSocketError) -> EventLoop {
        if let given { return given }
        do {
            return try shared()
        } catch {
            throw WebSocketError(.io, "no event loop for the socket: \(error.message)")
        }
    }
}
