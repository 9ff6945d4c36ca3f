import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Process signals as values on the shared ``EventLoop``, by the self-pipe trick: the handler writes the signal's
/// number into a pipe, and the loop, which watches the pipe's reading end like any socket, hands it to each watch
/// that asked for that signal.
///
/// No thread waits for signals and nothing reaches libdispatch, so a process whose signals are watched this way
/// still wakes no one while idle. A handler may do almost nothing (only async-signal-safe calls), which is why it
/// only writes a byte; everything else happens on the loop's thread.
///
/// A signal is handled while at least one watch holds it; when the last watch holding it stops, the action it had
/// before the first watch (its default, for most programs) is back. A watch holds its signals from ``start(_:)``
/// until ``stop()``, so a signal that comes in between is delivered, never lost to the default action.
///
/// ## Concurrency
/// The process's pipe, its installed actions and the watches sit behind one `Mutex`; ``arrivals`` is an
/// `AsyncStream` any one task reads.
package final class SignalWatch: Sendable {
    /// The watched signals' numbers as they arrive, in order; it ends at ``stop()``.
    package let arrivals: AsyncStream<Int32>
    private let id: Int

    private init(id: Int, arrivals: AsyncStream<Int32>) {
        self.id = id
        self.arrivals = arrivals
    }

    deinit { SignalRouter.stop(id) }

    /// Starts handling `signals` (`SIGINT`, `SIGTERM`, …) for this watch.
    ///
    /// - Throws: ``EventLoopError`` when the process's pipe cannot be made or the shared loop cannot start (the
    ///   process is out of descriptors); nothing is handled then.
    package static func start(_ signals: Set<Int32>) throws(EventLoopError) -> SignalWatch {
        let (arrivals, continuation) = AsyncStream.makeStream(of: Int32.self)
        let id = try SignalRouter.add(signals, continuation)
        return SignalWatch(id: id, arrivals: arrivals)
    }

    /// Stops watching: ``arrivals`` ends, and each signal no other watch holds takes its earlier action again.
    /// A second call does nothing.
    package func stop() {
        SignalRouter.stop(id)
    }
}

/// The write end of the process's signal pipe, for the handler, which can capture nothing; -1 before the pipe.
private let signalPipeWriter = Atomic<Int32>(-1)

/// The action of every watched signal: its number, as one byte, into the pipe. `write` is async-signal-safe; the
/// handler keeps `errno` as it found it, since it may interrupt code about to read it.
private func relaySignal(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriter.load(ordering: .relaxed), &byte, 1)
    errno = saved
}

/// The process-wide side of ``SignalWatch``: the pipe, the actions installed (with the ones they replaced) and the
/// watches, each with the signals it asked for.
private enum SignalRouter {
    private struct Installed {
        /// How many watches hold the signal.
        var holders: Int
        /// The action before the first of them, put back when the last stops.
        var earlier: sigaction
    }

    private struct Watch {
        var signals: Set<Int32>
        var continuation: AsyncStream<Int32>.Continuation
    }

    private struct State {
        var hasPipe = false
        var installed: [Int32: Installed] = [:]
        var watches: [Int: Watch] = [:]
        var nextID = 0
    }

    private static let state = Mutex(State())

    static func add(
        _ signals: Set<Int32>,
        _ continuation: AsyncStream<Int32>.Continuation
    ) throws(EventLoopError)
        -> Int
    {
        try state.withLock { state throws(EventLoopError) -> Int in
            if !state.hasPipe {
                try openPipe()
                state.hasPipe = true
            }
            for signal in signals { install(signal, &state) }
            let id = state.nextID
            state.nextID += 1
            state.watches[id] = Watch(signals: signals, continuation: continuation)
            return id
        }
    }

    static func stop(_ id: Int) {
        let ended = state.withLock { state -> Watch? in
            guard let watch = state.watches.removeValue(forKey: id) else { return nil }
            for signal in watch.signals { uninstall(signal, &state) }
            return watch
        }
        ended?.continuation.finish()
    }

    /// Hands `signal` to every watch that holds it.
    static func deliver(_ signal: Int32) {
        let continuations = state.withLock { state in
            state.watches.values.filter { $0.signals.contains(signal) }.map(\.continuation)
        }
        for continuation in continuations { continuation.yield(signal) }
    }

    /// The pipe, non-blocking at both ends (a burst of signals never blocks the handler; the loop reads until it
    /// is empty), watched by the shared loop for as long as the process lives.
    private static func openPipe() throws(EventLoopError) {
        let loop = try EventLoop.shared()
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw EventLoopError.lastError("pipe") }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        signalPipeWriter.store(ends[1], ordering: .relaxed)
        let reader = SignalPipeReader(descriptor: ends[0])
        loop.execute { loop.watch(reader.descriptor, reader, reading: true, writing: false) }
    }

    private static func install(_ signal: Int32, _ state: inout State) {
        if state.installed[signal] != nil {
            state.installed[signal]?.holders += 1
            return
        }
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = relaySignal
        #elseif canImport(Darwin)
        action.__sigaction_u.__sa_handler = relaySignal
        #endif
        // A system call the signal interrupts goes on rather than failing with EINTR.
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        var earlier = sigaction()
        _ = sigaction(signal, &action, &earlier)
        state.installed[signal] = Installed(holders: 1, earlier: earlier)
    }

    private static func uninstall(_ signal: Int32, _ state: inout State) {
        guard var installed = state.installed[signal] else { return }
        installed.holders -= 1
        guard installed.holders == 0 else {
            state.installed[signal] = installed
            return
        }
        _ = sigaction(signal, &installed.earlier, nil)
        state.installed[signal] = nil
    }
}

/// Reads the signal pipe on the loop's thread: each byte is a signal's number.
private final class SignalPipeReader: LoopHandler, Sendable {
    let descriptor: Int32

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    func readable() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(descriptor, &bytes, bytes.count)
            guard count > 0 else { return }
            for byte in bytes.prefix(count) { SignalRouter.deliver(Int32(byte)) }
        }
    }

    func writable() {}
}
