import SocketLoop
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SocketChannel {
    /// Connects to the first address of `host` that answers, without blocking: `connect` returns at once and the
    /// loop says when the socket is writable.
    ///
    /// - Parameter dial: Where the socket being connected is kept, so a deadline can close it from any thread.
    /// - Throws: ``WebSocketError/Code/connectFailed`` when no address connects, or the dial's abort error.
    static func connect(
        host: String,
        port: Int,
        loop: EventLoop,
        stall: @escaping @Sendable () -> WriteStall,
        dial: DialAttempt
    ) async throws(WebSocketError) -> SocketChannel {
        let addresses = try await HostResolver.addresses(of: host, port: port)
        var lastError = "no address for \(host)"
        for address in addresses {
            let descriptor = SocketPlatform.makeStreamSocket(family: address.family)
            guard descriptor >= 0 else {
                lastError = SocketPlatform.lastError("socket")
                continue
            }
            let peer = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            let channel = SocketChannel(descriptor: descriptor, loop: loop, peer: peer, stall: stall())
            try dial.adopt(channel)
            let result = SocketPlatform.startConnect(descriptor, to: address)
            let outcome: Result<Void, WebSocketError>
            if result == 0 {
                outcome = .success(())
            } else if errno == EINPROGRESS || errno == EINTR {
                outcome = await withCheckedContinuation { continuation in
                    channel.onLoop { channel.waitUntilConnected(continuation) }
                }
            } else {
                outcome = .failure(WebSocketError(.connectFailed, "\(peer): \(SocketPlatform.lastError("connect"))"))
            }
            switch outcome {
            case .success:
                SocketPlatform.configureStream(descriptor)
                return channel
            case .failure(let error):
                lastError = error.message
                channel.abort(error)
                try dial.checkNotAborted()
            }
        }
        throw WebSocketError(.connectFailed, "\(host):\(port): \(lastError)")
    }
}

/// A dial in progress, as a deadline sees it: the socket being connected (so it can be closed from any thread), or
/// the error that ended the dial.
final class DialAttempt: Sendable {
    private enum State {
        case running(SocketChannel?)
        case aborted(WebSocketError)
    }

    private let state = Mutex(State.running(nil))

    /// Keeps `channel` as the dial's socket.
    ///
    /// - Throws: The abort's error (after closing `channel`) when the dial was given up meanwhile.
    func adopt(_ channel: SocketChannel) throws(WebSocketError) {
        let failure = state.withLock { state -> WebSocketError? in
            if case .aborted(let error) = state { return error }
            state = .running(channel)
            return nil
        }
        if let failure {
            channel.abort(failure)
            throw failure
        }
    }

    /// - Throws: The abort's error when the dial was given up.
    func checkNotAborted() throws(WebSocketError) {
        if case .aborted(let error) = state.withLock({ $0 }) { throw error }
    }

    /// Gives the dial up: its socket closes and every later step fails with `error`.
    func abort(_ error: WebSocketError) {
        let channel = state.withLock { state -> SocketChannel? in
            defer { state = .aborted(error) }
            if case .running(let channel) = state { return channel }
            return nil
        }
        channel?.abort(error)
    }
}
