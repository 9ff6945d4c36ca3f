import FTWSocketLoop

/// The scoped lifetime's answer to a shutdown signal: on the first of the signals it watches, it cancels the task
/// the body runs in and closes the client, as the body's end would; a second signal takes its default action (a
/// person's second Ctrl-C ends the process at once, whatever the close is waiting for).
///
/// ## Concurrency
/// A value holding the signal watch and the one task that waits on it; ``stop()`` ends both and waits for a close
/// the signal began.
struct SignalShutdown: Sendable {
    /// The task a scoped body runs in: it may be cancelled from the signal's task, and it outlives this value, since
    /// the run that made it waits in ``stop()`` before it returns.
    struct BodyTask: @unchecked Sendable {
        // @unchecked: an `UnsafeCurrentTask` is not `Sendable` because it must not outlive its task. This one is used
        // only while the run that took it is still running its body (``SignalShutdown/stop()`` comes first), and
        // cancelling a task is safe from any thread.
        let task: UnsafeCurrentTask

        func cancel() { task.cancel() }
    }

    private let watch: SignalWatch
    private let waiter: Task<Void, Never>

    /// Starts watching `signals` for `client`, whose scoped body runs in `body`; nil when there is none to watch.
    ///
    /// - Throws: ``/FTWSocketLoop/EventLoopError`` when the signals cannot be watched (the process is out of
    ///   descriptors).
    init?(_ signals: [ShutdownSignal], client: HeadlessClient, body: BodyTask?) throws(EventLoopError) {
        guard !signals.isEmpty else { return nil }
        let watch = try SignalWatch.start(Set(signals.map(\.number)))
        self.watch = watch
        waiter = Task {
            for await _ in watch.arrivals {
                watch.stop()
                body?.cancel()
                await client.close()
                return
            }
        }
    }

    /// Stops watching; waits for a close a signal began.
    func stop() async {
        watch.stop()
        await waiter.value
    }
}
