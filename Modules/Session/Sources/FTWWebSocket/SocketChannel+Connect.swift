import FTWSocketLoop
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SocketChannel {
    /// Connects to `host` without blocking, by Happy Eyeballs (``HappyEyeballs``): every address of both families,
    /// IPv6 first, a new attempt 250 ms after the last unless it failed sooner, the first to connect kept.
    ///
    /// - Parameters:
    ///   - clock: The clock the attempts' stagger runs on.
    ///   - dial: Where the sockets being connected are kept, so a deadline can close them from any thread.
    ///   - resolver: Where the host's addresses come from.
    /// - Throws: ``WebSocketError/Code/connectFailed`` when the name does not resolve or no address connects (naming
    ///   each address once, with the system's reason), or the dial's abort error.
    static func connect(
        host: String,
        port: Int,
        loop: EventLoop,
        clock: any Clock<Duration>,
        stall: @escaping @Sendable () -> WriteStall,
        dial: DialAttempt,
        resolver: HostResolver
    ) async throws(WebSocketError) -> SocketChannel {
        let addresses = try await resolver.addresses(of: host, port: port)
        let peer = SocketAddress.written(host: host, port: port)
        let race = HappyEyeballs<SocketChannel>(addresses: addresses, clock: clock) { address in
            await attempt(address, peer: peer, loop: loop, stall: stall, dial: dial)
        }
        return try await race.run(dial: dial, naming: (peer, host)) { dial.release($0, SocketChannel.closedError) }
    }

    /// One connection attempt to `address`, as the loop says it ends: the connected channel, or the system's reason
    /// (`connect: Connection refused`); cancelling the task closes its socket.
    private static func attempt(
        _ address: SocketAddress,
        peer: String,
        loop: EventLoop,
        stall: @escaping @Sendable () -> WriteStall,
        dial: DialAttempt
    ) async -> Result<SocketChannel, WebSocketError> {
        let descriptor = SocketPlatform.makeStreamSocket(family: address.family)
        guard descriptor >= 0 else {
            return .failure(WebSocketError(.connectFailed, SocketPlatform.lastError("socket")))
        }
        let channel = SocketChannel(descriptor: descriptor, loop: loop, peer: peer, stall: stall())
        do throws(WebSocketError) {
            try dial.adopt(channel)
        } catch {
            return .failure(error)
        }
        let outcome: Result<Void, WebSocketError>
        if SocketPlatform.startConnect(descriptor, to: address) == 0 {
            outcome = .success(())
        } else if errno == EINPROGRESS || errno == EINTR {
            outcome = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    channel.onLoop { channel.waitUntilConnected(continuation) }
                }
            } onCancel: {
                channel.abort(SocketChannel.closedError)
            }
        } else {
            outcome = .failure(WebSocketError(.connectFailed, SocketPlatform.lastError("connect")))
        }
        switch outcome {
        case .success:
            SocketPlatform.configureStream(descriptor)
            return .success(channel)
        case .failure(let error):
            dial.release(channel, error)
            return .failure(error)
        }
    }
}

/// A dial in progress, as a deadline sees it: the sockets being connected (so they can be closed from any thread),
/// or the error that ended the dial.
final class DialAttempt: Sendable {
    private enum State {
        case running([SocketChannel])
        case aborted(WebSocketError)
    }

    private let state = Mutex(State.running([]))

    /// Keeps `channel` among the dial's sockets.
    ///
    /// - Throws: The abort's error (after closing `channel`) when the dial was given up meanwhile.
    func adopt(_ channel: SocketChannel) throws(WebSocketError) {
        let failure = state.withLock { state -> WebSocketError? in
            switch state {
            case .aborted(let error):
                return error
            case .running(let channels):
                state = .running(channels + [channel])
                return nil
            }
        }
        if let failure {
            channel.abort(failure)
            throw failure
        }
    }

    /// Closes `channel` with `error` and lets it go: an attempt that failed, or lost the race.
    func release(_ channel: SocketChannel, _ error: WebSocketError) {
        state.withLock { state in
            if case .running(let channels) = state { state = .running(channels.filter { $0 !== channel }) }
        }
        channel.abort(error)
    }

    /// The error the dial was given up with, if it was.
    var abortError: WebSocketError? {
        if case .aborted(let error) = state.withLock({ $0 }) { return error }
        return nil
    }

    /// - Throws: The abort's error when the dial was given up.
    func checkNotAborted() throws(WebSocketError) {
        if let abortError { throw abortError }
    }

    /// Gives the dial up: its sockets close and every later step fails with `error`.
    func abort(_ error: WebSocketError) {
        let channels = state.withLock { state -> [SocketChannel] in
            defer { state = .aborted(error) }
            if case .running(let channels) = state { return channels }
            return []
        }
        for channel in channels { channel.abort(error) }
    }
}
