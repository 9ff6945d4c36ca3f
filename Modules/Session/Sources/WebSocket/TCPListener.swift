import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listening socket on 127.0.0.1 whose accept loop runs on its own thread and can be stopped from any thread.
///
/// The loop polls the listening socket and a wake-up pipe, so ``stop()`` never races a blocked `accept`; the
/// loop's thread alone closes the descriptors once it is running. An accept that fails for want of descriptors or
/// memory (EMFILE at `ulimit -n`) waits 10 ms, doubling to 1 s, and tries again; only a listening socket that
/// itself fails ends the loop.
final class TCPListener: Sendable {
    private struct Descriptors {
        let listener: Int32
        let wakeRead: Int32
        let wakeWrite: Int32

        func closeAll() {
            for descriptor in [listener, wakeRead, wakeWrite] { _ = close(descriptor) }
        }
    }

    private enum State {
        /// Bound and listening; nobody accepts yet. Moves to `accepting` or `closed`.
        case bound(Descriptors)
        /// The accept thread runs and owns closing. Moves to `stopping`, or to `closed` if accepting fails.
        case accepting(Descriptors)
        /// The accept thread was woken and will close everything. Moves to `closed`.
        case stopping
        /// Descriptors released. Final.
        case closed
    }

    /// The bound port, useful when 0 (ephemeral) was asked for.
    let port: Int
    private let state: Mutex<State>

    /// Binds 127.0.0.1:`port` and starts listening.
    ///
    /// - Throws: ``WebSocketError/Code/io`` when the port cannot be bound.
    init(port: Int) throws(WebSocketError) {
        guard let wake = SocketPlatform.makePipe() else { throw WebSocketError(.io, SocketPlatform.lastError("pipe")) }
        let listener = socket(AF_INET, SocketPlatform.streamType, 0)
        if listener >= 0 { SocketPlatform.setCloseOnExec(listener) }
        let descriptors = Descriptors(listener: listener, wakeRead: wake.read, wakeWrite: wake.write)
        do throws(WebSocketError) {
            guard listener >= 0 else { throw WebSocketError(.io, SocketPlatform.lastError("socket")) }
            self.port = try Self.bindLoopback(listener, port: port)
        } catch {
            descriptors.closeAll()
            throw error
        }
        state = Mutex(.bound(descriptors))
    }

    /// Starts the accept thread and returns what it accepts; the stream ends after ``stop()`` or with a failure.
    ///
    /// A second call gets a stream that is already finished.
    func start(writeTimeout: Duration) -> AsyncStream<Result<TCPSocket, WebSocketError>> {
        let (stream, continuation) = AsyncStream<Result<TCPSocket, WebSocketError>>.makeStream()
        let descriptors = state.withLock { state -> Descriptors? in
            guard case .bound(let descriptors) = state else { return nil }
            state = .accepting(descriptors)
            return descriptors
        }
        guard let descriptors else {
            continuation.finish()
            return stream
        }
        let thread = Thread {
            Self.acceptLoop(descriptors, writeTimeout: writeTimeout) { continuation.yield($0) }
            self.state.withLock { state in
                descriptors.closeAll()
                state = .closed
            }
            continuation.finish()
        }
        thread.name = "WebSocket accept"
        thread.start()
        return stream
    }

    /// Stops accepting; safe to call from any thread, any number of times.
    func stop() {
        state.withLock { state in
            switch state {
            case .bound(let descriptors):
                descriptors.closeAll()
                state = .closed
            case .accepting(let descriptors):
                var byte: UInt8 = 1
                _ = write(descriptors.wakeWrite, &byte, 1)
                state = .stopping
            case .stopping, .closed:
                return
            }
        }
    }

    private static func acceptLoop(
        _ descriptors: Descriptors,
        writeTimeout: Duration,
        yield: (Result<TCPSocket, WebSocketError>) -> Void
    ) {
        var entries = [
            pollfd(fd: descriptors.listener, events: Int16(POLLIN), revents: 0),
            pollfd(fd: descriptors.wakeRead, events: Int16(POLLIN), revents: 0),
        ]
        var backoff: Int32 = 0
        while true {
            guard poll(&entries, 2, -1) >= 0 else {
                if errno == EINTR { continue }
                return yield(.failure(WebSocketError(.io, SocketPlatform.lastError("poll"))))
            }
            if entries[1].revents != 0 { return }
            guard entries[0].revents & Int16(POLLIN) != 0 else {
                return yield(.failure(WebSocketError(.io, "listening socket failed")))
            }
            let accepted = SocketPlatform.acceptConnection(descriptors.listener)
            if accepted >= 0 {
                backoff = 0
                yield(.success(TCPSocket(accepted: accepted, writeTimeout: writeTimeout)))
            } else if Self.exhaustion.contains(errno) {
                // The connection stays queued, so the listener stays readable: wait on the wake pipe alone.
                backoff = min(max(backoff * 2, Self.firstBackoffMs), Self.maxBackoffMs)
                var wake = [entries[1]]
                if poll(&wake, 1, backoff) > 0 { return }
            } else if ![EINTR, EAGAIN, ECONNABORTED, EPROTO].contains(errno) {
                return yield(.failure(WebSocketError(.io, SocketPlatform.lastError("accept"))))
            }
        }
    }

    /// Failures that say the process or the system is out of something for now (descriptors at `ulimit -n`,
    /// memory): accepting waits and tries again, because ending the loop would drop every connected peer.
    private static let exhaustion = [EMFILE, ENFILE, ENOBUFS, ENOMEM]
    /// The first wait after an exhausted accept, in ms; it doubles up to ``maxBackoffMs``.
    static let firstBackoffMs: Int32 = 10
    /// The longest wait between two accepts while resources are exhausted, in ms.
    static let maxBackoffMs: Int32 = 1_000

    private static func bindLoopback(_ listener: Int32, port: Int) throws(WebSocketError) -> Int {
        guard let requested = UInt16(exactly: port) else { throw WebSocketError(.io, "port \(port) out of range") }
        var reuse: Int32 = 1
        _ = setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = requested.bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(listener, generic, length) == 0 && listen(listener, 128) == 0
                    && getsockname(listener, generic, &length) == 0
            }
        }
        guard bound else { throw WebSocketError(.io, SocketPlatform.lastError("bind 127.0.0.1:\(port)")) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
