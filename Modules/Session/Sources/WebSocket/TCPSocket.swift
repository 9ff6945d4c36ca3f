import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One blocking TCP socket whose descriptor can be shut down from any thread but is closed exactly once.
///
/// Reads happen on one thread and writes on one serial queue; any thread may call ``interrupt()`` to wake both
/// (blocked `recv`, `send`, `connect` and `poll` all return). ``dispose()`` releases the descriptor, and the owners
/// call it only once nothing else can touch the socket, so a descriptor number is never reused under a reader.
final class TCPSocket: Sendable {
    private enum State {
        /// No descriptor yet (before connect, or between connect attempts).
        case unconnected
        /// Usable for I/O.
        case open(Int32)
        /// Woken and useless, still holding the descriptor until ``dispose()``.
        case shutDown(Int32)
        /// Released; every call fails or does nothing.
        case closed
    }

    private let state: Mutex<State>

    /// Makes a socket with no connection yet, for ``dial(host:port:writeTimeout:)``.
    init() { state = Mutex(.unconnected) }

    /// Wraps a descriptor from `accept`.
    init(accepted descriptor: Int32, writeTimeout: Duration) {
        state = Mutex(.open(descriptor))
        Self.configure(descriptor, writeTimeout: writeTimeout)
    }

    private var descriptor: Int32? {
        state.withLock { state in
            switch state {
            case .open(let descriptor), .shutDown(let descriptor): descriptor
            case .unconnected, .closed: nil
            }
        }
    }

    /// Connects to the first address of `host` that answers.
    ///
    /// - Throws: ``WebSocketError/Code/connectFailed`` when no address connects or the socket was shut down.
    func dial(host: String, port: Int, writeTimeout: Duration) throws(WebSocketError) {
        var lastError = "no address for \(host)"
        for address in try Self.resolve(host: host, port: port) {
            let descriptor = socket(address.family, SocketPlatform.streamType, 0)
            guard descriptor >= 0 else {
                lastError = SocketPlatform.lastError("socket")
                continue
            }
            SocketPlatform.setCloseOnExec(descriptor)
            try adopt(descriptor)
            let result = address.bytes.withUnsafeBytes { raw in
                connect(descriptor, raw.baseAddress?.assumingMemoryBound(to: sockaddr.self), address.length)
            }
            if result == 0 {
                Self.configure(descriptor, writeTimeout: writeTimeout)
                return
            }
            lastError = SocketPlatform.lastError("connect")
            try abandonAttempt(descriptor)
        }
        throw WebSocketError(.connectFailed, "\(host):\(port): \(lastError)")
    }

    /// Whether the socket was shut down or released here, so a read of 0 bytes is our doing, not the peer's end.
    var isShutDown: Bool {
        state.withLock { state in
            switch state {
            case .shutDown, .closed: true
            case .unconnected, .open: false
            }
        }
    }

    /// Reads what is available, blocking until something is.
    ///
    /// - Returns: The number of bytes read; 0 when the peer ended TCP or the socket was shut down.
    /// - Throws: ``WebSocketError/Code/connectionLost`` when the read fails (reset, for example).
    func receive(into buffer: inout [UInt8]) throws(WebSocketError) -> Int {
        guard let descriptor else { return 0 }
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count >= 0 { return count }
            if errno != EINTR {
                throw WebSocketError(
                    .connectionLost,
                    SocketPlatform.lastError("recv"),
                    closeCode: WebSocketCloseCode.abnormalClosure
                )
            }
        }
    }

    /// Whether bytes (or the end of the stream) can be read within `timeout`.
    func waitUntilReadable(timeout: Duration) -> Bool {
        guard let descriptor else { return true }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let result = poll(&entry, 1, SocketPlatform.milliseconds(timeout))
            if result >= 0 { return result > 0 }
            if errno != EINTR { return true }
        }
    }

    /// Writes every byte, blocking at most the write timeout per stalled `send`.
    ///
    /// - Throws: ``WebSocketError/Code/io`` when the peer is gone, the write stalled, or the socket was shut down.
    func sendAll(_ bytes: [UInt8]) throws(WebSocketError) {
        guard let descriptor else { throw WebSocketError(.io, "send on a closed socket") }
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                send(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset, SocketPlatform.sendFlags)
            }
            if sent > 0 {
                offset += sent
            } else if sent < 0, errno == EINTR {
                continue
            } else {
                throw WebSocketError(.io, SocketPlatform.lastError("send"))
            }
        }
    }

    /// Sends FIN after everything written so far, so the peer reads our last frame before seeing the end.
    func finishWriting() {
        state.withLock { state in
            if case .open(let descriptor) = state { _ = shutdown(descriptor, Int32(SHUT_WR)) }
        }
    }

    /// Ends the connection in both directions and wakes any thread blocked on it.
    func interrupt() {
        state.withLock { state in
            switch state {
            case .open(let descriptor), .shutDown(let descriptor):
                _ = shutdown(descriptor, Int32(SHUT_RDWR))
                state = .shutDown(descriptor)
            case .unconnected:
                state = .closed
            case .closed:
                return
            }
        }
    }

    /// Releases the descriptor; later calls do nothing.
    func dispose() {
        state.withLock { state in
            switch state {
            case .open(let descriptor), .shutDown(let descriptor): _ = close(descriptor)
            case .unconnected, .closed: break
            }
            state = .closed
        }
    }

    private func adopt(_ descriptor: Int32) throws(WebSocketError) {
        let adopted = state.withLock { state in
            guard case .unconnected = state else { return false }
            state = .open(descriptor)
            return true
        }
        guard adopted else {
            _ = close(descriptor)
            throw WebSocketError(.connectFailed, "connect abandoned")
        }
    }

    private func abandonAttempt(_ descriptor: Int32) throws(WebSocketError) {
        _ = close(descriptor)
        let wasAbandoned = state.withLock { state in
            guard case .open = state else {
                state = .closed
                return true
            }
            state = .unconnected
            return false
        }
        if wasAbandoned { throw WebSocketError(.connectFailed, "connect abandoned") }
    }

    private static func resolve(host: String, port: Int) throws(WebSocketError) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = SocketPlatform.streamType
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            throw WebSocketError(.connectFailed, "\(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var addresses: [SocketAddress] = []
        var entry = list
        while let info = entry?.pointee {
            if let address = info.ai_addr {
                let bytes = UnsafeRawBufferPointer(start: address, count: Int(info.ai_addrlen))
                addresses.append(SocketAddress(family: info.ai_family, bytes: Array(bytes), length: info.ai_addrlen))
            }
            entry = info.ai_next
        }
        return addresses
    }

    private static func configure(_ descriptor: Int32, writeTimeout: Duration) {
        var enabled: Int32 = 1
        let intSize = socklen_t(MemoryLayout<Int32>.size)
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &enabled, intSize)
        #if canImport(Darwin)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &enabled, intSize)
        #endif
        var timeout = SocketPlatform.timeValue(writeTimeout)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }
}

/// One resolved address, copied out of `getaddrinfo`'s list so the list can be freed.
private struct SocketAddress {
    let family: Int32
    let bytes: [UInt8]
    let length: socklen_t
}
