public import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with a clean signal state: every signal unblocked and at its default action, whatever
/// the thread that starts it has blocked or ignored.
///
/// Foundation's `Process` hands the child the signal mask of the thread that spawns it. A dispatch worker blocks
/// most signals, SIGTERM among them, so a relay child started from an async task never stopped when told to and
/// `ftw-bench flood` waited for it forever. This type spawns with `posix_spawn` attributes that reset the mask
/// (`POSIX_SPAWN_SETSIGMASK`, empty) and every catchable signal's action (`POSIX_SPAWN_SETSIGDEF`), and closes
/// every descriptor but the three standard ones in the child. Its shape is `Process`'s, so a caller swaps one
/// for the other.
///
/// ## Concurrency
/// Set it up on one task, then ``run()``; afterwards any task may read its state, signal it or wait for it. A
/// thread of its own waits for the child (`waitpid`), so waiting never holds a thread of the concurrency pool.
public final class ChildProcess: @unchecked Sendable {
    /// Why a child ended.
    public enum TerminationReason: Sendable, Hashable {
        /// It called `exit`.
        case exit
        /// A signal ended it.
        case uncaughtSignal
    }

    /// The program to run.
    public var executableURL: URL?
    /// Its arguments, without the program name.
    public var arguments: [String] = []
    /// Its whole environment; nil passes this process's own.
    public var environment: [String: String]?
    /// The folder it starts in; nil for this process's own.
    public var currentDirectoryURL: URL?
    /// What the child reads: a `Pipe` (it reads the pipe's reading end), a `FileHandle`, or nil for this
    /// process's own standard input.
    public var standardInput: Any?
    /// Where the child writes: a `Pipe`, a `FileHandle`, or nil for this process's own standard output.
    public var standardOutput: Any?
    /// Where the child writes its errors, as ``standardOutput``.
    public var standardError: Any?
    /// Called on the waiting thread once the child ended.
    public var terminationHandler: (@Sendable (ChildProcess) -> Void)?

    private struct Ending {
        var status: Int32
        var reason: TerminationReason
    }

    private let ending = Mutex<Ending?>(nil)
    private let ended = DispatchGroup()
    private var pid: pid_t = 0

    /// Makes a child to set up; nothing runs before ``run()``.
    public init() {}

    /// The child's process id; 0 before ``run()``.
    public var processIdentifier: Int32 { pid }

    /// Whether the child was started and has not ended.
    public var isRunning: Bool { pid != 0 && ending.withLock { $0 == nil } }

    /// The exit status, or the number of the signal that ended the child; waits for it to end.
    public var terminationStatus: Int32 {
        waitUntilExit()
        return ending.withLock { $0?.status ?? 0 }
    }

    /// Whether the child exited or a signal ended it; waits for it to end.
    public var terminationReason: TerminationReason {
        waitUntilExit()
        return ending.withLock { $0?.reason ?? .exit }
    }

    /// Starts the child.
    ///
    /// - Throws: `CocoaError` (`.fileNoSuchFile`) when no executable is set, or a `POSIXError` naming why the
    ///   spawn failed (the program is missing or not executable).
    public func run() throws {
        guard let executableURL else { throw CocoaError(.fileNoSuchFile) }
        let path = executableURL.path(percentEncoded: false)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        for (stream, target) in [
            (standardInput, STDIN_FILENO), (standardOutput, STDOUT_FILENO), (standardError, STDERR_FILENO),
        ] {
            switch Self.descriptor(of: stream, reading: target == STDIN_FILENO) {
            case nil: break
            // `FileHandle.nullDevice` has no descriptor of its own.
            case let descriptor? where descriptor < 0:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0)
            case let descriptor?: posix_spawn_file_actions_adddup2(&actions, descriptor, target)
            }
        }
        if let folder = currentDirectoryURL {
            try Self.changeDirectory(&actions, to: folder.path(percentEncoded: false))
        }
        Self.closeTheRest(&actions)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let environment = (self.environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0)=\($1)") }
        let envp = environment + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
        pid = child
        closeChildEnds()
        ended.enter()
        Thread.detachNewThread { [self] in reap() }
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 and later), which its Swift module does not declare:
    /// looked up by name, so the child changes folder between fork and exec.
    private static func changeDirectory(_ actions: inout posix_spawn_file_actions_t, to path: String) throws {
        typealias AddChdir =
            @convention(c) (
                UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
            ) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np")
        else { throw POSIXError(.ENOSYS) }
        let status = unsafeBitCast(symbol, to: AddChdir.self)(&actions, path)
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
    }

    /// Sends SIGTERM.
    public func terminate() {
        signal(SIGTERM)
    }

    /// Sends `number` to the child, if it runs.
    public func signal(_ number: Int32) {
        guard isRunning else { return }
        _ = kill(pid, number)
    }

    /// Blocks the calling thread until the child ended.
    public func waitUntilExit() {
        guard pid != 0 else { return }
        ended.wait()
    }

    /// Waits, without holding a thread, until the child ended; returns its ``terminationStatus``.
    @discardableResult
    public func exited() async -> Int32 {
        guard pid != 0 else { return 0 }
        await withCheckedContinuation { continuation in
            ended.notify(queue: .global()) { continuation.resume() }
        }
        return terminationStatus
    }

    /// Waits for the child on the thread ``run()`` started for it.
    private func reap() {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let signalled = status & 0x7f != 0 && status & 0x7f != 0x7f
        ending.withLock {
            $0 =
                signalled
                ? Ending(status: status & 0x7f, reason: .uncaughtSignal)
                : Ending(status: (status >> 8) & 0xff, reason: .exit)
        }
        ended.leave()
        terminationHandler?(self)
    }

    /// Closes this process's copy of the ends of pipes the child now holds, so a reader sees the end of the
    /// child's output once the child exits.
    private func closeChildEnds() {
        if let pipe = standardInput as? Pipe { try? pipe.fileHandleForReading.close() }
        for stream in [standardOutput, standardError] {
            if let pipe = stream as? Pipe { try? pipe.fileHandleForWriting.close() }
        }
    }

    private static func descriptor(of stream: Any?, reading: Bool) -> Int32? {
        switch stream {
        case let pipe as Pipe:
            reading ? pipe.fileHandleForReading.fileDescriptor : pipe.fileHandleForWriting.fileDescriptor
        case let handle as FileHandle: handle.fileDescriptor
        default: nil
        }
    }

    /// Has the child close every descriptor above the standard three (glibc's `closefrom` file action, looked up
    /// at run time since the Swift overlay does not declare it); where there is none, each descriptor open now.
    private static func closeTheRest(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
            return
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap(Int32.init) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
    }
}
