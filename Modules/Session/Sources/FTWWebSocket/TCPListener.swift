import FTWSocketLoop

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listening socket on 127.0.0.1, watched by an ``EventLoop``: it accepts when the loop says a connection waits, so
/// no thread is parked in `accept` and none is made per connection.
///
/// An accept that fails for want of descriptors or memory (EMFILE at `ulimit -n`) stops watching the socket and says
/// so; the server waits and calls ``resume()`` (the connection stays queued in the kernel meanwhile, and watching
/// would only wake the loop for it again and again). Only a listening socket that itself fails ends the stream.
///
/// ## Concurrency
/// Loop-confined like ``SocketChannel``: its state is touched on the loop's thread; ``start()``, ``resume()`` and
/// ``stop()`` hop there.
final class TCPListener: LoopHandler, @unchecked Sendable {
    // @unchecked: `events`, `isWatching` and `isClosed` are touched on the loop's thread only.
    // TODO: as for SocketChannel, a loop-confined non-Sendable type once the language can say so.

    /// What the listener reports.
    enum Event {
        /// A connection, non-blocking and kept out of child processes.
        case accepted(Int32)
        /// Accepting failed for want of descriptors or memory: nothing is accepted until ``resume()``.
        case exhausted
        /// The listening socket failed; nothing more comes.
        case failed(WebSocketError)
    }

    /// The bound port, useful when 0 (ephemeral) was asked for.
    let port: Int
    let loop: EventLoop
    private let descriptor: Int32
    private var events: AsyncStream<Event>.Continuation?
    private var isStarted = false
    private var isClosed = false

    /// Binds 127.0.0.1:`port` and starts listening; nothing is accepted until ``start()``.
    ///
    /// - Throws: ``WebSocketError/Code/io`` when the port cannot be bound.
    init(port: Int, loop: EventLoop) throws(WebSocketError) {
        let listener = SocketPlatform.makeStreamSocket(family: AF_INET)
        guard listener >= 0 else { throw WebSocketError(.io, SocketPlatform.lastError("socket")) }
        do throws(WebSocketError) {
            self.port = try Self.bindLoopback(listener, port: port)
        } catch {
            SocketPlatform.closeDescriptor(listener)
            throw error
        }
        descriptor = listener
        self.loop = loop
    }

    deinit {
        if !isClosed { SocketPlatform.closeDescriptor(descriptor) }
    }

    /// Starts accepting; the stream ends after ``stop()`` or with a failure. A second call gets a finished stream.
    func start() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream()
        loop.execute {
            guard !self.isStarted, !self.isClosed else { return continuation.finish() }
            self.isStarted = true
            self.events = continuation
            self.watch()
        }
        return stream
    }

    /// Accepts again after ``Event/exhausted``.
    func resume() {
        loop.execute { if !self.isClosed { self.watch() } }
    }

    /// Stops accepting and closes the socket, returning once it is closed: a connect after the return is refused,
    /// where one while the close waited its turn on the loop was taken into the old backlog and then reset. Safe to
    /// call from any thread, any number of times.
    func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loop.execute {
                self.closeOnLoop()
                continuation.resume()
            }
        }
    }

    /// ``stop()`` for a caller that cannot wait (a cancellation handler): the socket closes on the loop's next turn.
    func stopSoon() {
        loop.execute { self.closeOnLoop() }
    }

    /// Closes the socket and ends the events, on the loop: after a stop, or after a failure that ends accepting.
    private func closeOnLoop() {
        guard !isClosed else { return }
        isClosed = true
        loop.watch(descriptor, self, reading: false, writing: false)
        SocketPlatform.closeDescriptor(descriptor)
        events?.finish()
        events = nil
    }

    func readable() {
        guard !isClosed, let events else { return }
        for _ in 0..<Self.acceptsPerWake {
            let accepted = SocketPlatform.acceptConnection(descriptor)
            if accepted >= 0 {
                SocketPlatform.configureStream(accepted)
                events.yield(.accepted(accepted))
                continue
            }
            let failure = errno
            if failure == EAGAIN || failure == EWOULDBLOCK { return }
            if Self.exhaustion.contains(failure) {
                loop.watch(descriptor, self, reading: false, writing: false)
                events.yield(.exhausted)
                return
            }
            if ![EINTR, ECONNABORTED, EPROTO].contains(failure) {
                events.yield(.failed(WebSocketError(.io, SocketPlatform.lastError("accept"))))
                return closeOnLoop()
            }
        }
    }

    func writable() {}

    private func watch() {
        guard loop.watch(descriptor, self, reading: true, writing: false) else {
            events?.yield(.failed(WebSocketError(.io, "the event loop cannot watch the listening socket")))
            return closeOnLoop()
        }
    }

    /// At most this many connections are taken per wake-up, so sockets already open are read in between.
    private static let acceptsPerWake = 64

    /// Failures that say the process or the system is out of something for now (descriptors at `ulimit -n`,
    /// memory): accepting waits and tries again, because ending the loop would drop every connected peer.
    private static let exhaustion = [EMFILE, ENFILE, ENOBUFS, ENOMEM]

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
