public import FTWBus
public import FTWCache
public import FTWSealInterface

extension HeadlessClient {
    /// Runs a client for `paired` on the wall clock around `body`, as ``run(shutdownSignals:isolation:_:)`` does: the
    /// scoped lifetime an app's scene, or a program in a terminal, holds.
    ///
    /// ```swift
    /// try await HeadlessClient.run(paired: site, store: store) { client in
    ///     try await client.setPhase(.active)
    ///     client.show(.now)
    ///     for await screen in client.observeHomeScreen() where screen.isLive {
    ///         print(screen)
    ///         break
    ///     }
    /// }  // persisted, and the session closed with 1000
    /// ```
    ///
    /// - Parameters:
    ///   - paired: The site, as pairing left it.
    ///   - store: The phone's sealed files.
    ///   - policy: The rule for asking again.
    ///   - log: Where the session's lines go (categories `asks` and `session`); nothing by default.
    ///   - shutdownSignals: The signals that close the client as the body's end does (`[.interrupt, .terminate]`
    ///     for a program in a terminal); none by default, so a signal takes its own action.
    ///   - isolation: Where `body` runs: the caller's actor, by default.
    ///   - body: What the app does while the client runs.
    /// - Returns: What `body` returned.
    /// - Throws: ``EnrolmentError`` `.relay` when the site has no relay address; ``/FTWSocketLoop/EventLoopError`` when
    ///   the signals cannot be watched; otherwise what `body` threw, after the close.
    public static func run<Value>(
        paired: PairedSite,
        store: any SealedStore,
        policy: AskPolicy = .ageKeyed,
        log: any LogSink = DiscardingLogSink(),
        shutdownSignals: [ShutdownSignal] = [],
        isolation: isolated (any Actor)? = #isolation,
        _ body: (HeadlessClient) async throws -> Value
    ) async throws -> Value {
        let client = try onWallClock(paired: paired, store: store, policy: policy, log: log)
        return try await client.run(shutdownSignals: shutdownSignals, isolation: isolation, body)
    }

    /// Launches (draws from the sealed files), runs every service, and hands the client to `body`; whichever way
    /// `body` ends (it returns, throws, or its task is cancelled), the client is closed (``close()``) before this
    /// returns.
    ///
    /// `body` sets the scene phase and shows views; the client dials at the first phase in front. The close runs
    /// to its end even when the calling task is cancelled, so a cancelled scene still leaves the box a clean close
    /// frame rather than a dropped socket.
    ///
    /// With `shutdownSignals`, as swift-service-lifecycle's `ServiceGroup(gracefulShutdownSignals:)`: when one of
    /// them arrives, the task `body` runs in is cancelled and the client closes at once, as the body's end would
    /// (the box sees 1000, the sealed files are written; every observation ends and ``setPhase(_:)`` throws
    /// ``HeadlessClientError/closed``), and this returns once `body` has. The signals are handled from before the
    /// launch until the close, on the client's event loop (a pipe the loop reads, no thread and no libdispatch);
    /// after the first, a second takes its default action, so a second Ctrl-C ends the process at once.
    ///
    /// - Parameters:
    ///   - shutdownSignals: The signals that close the client as the body's end does; none by default, so a
    ///     signal takes its own action (SIGINT and SIGTERM end the process, the box sees a dropped socket).
    ///   - isolation: Where `body` runs: the caller's actor, by default.
    ///   - body: What the app does while the client runs.
    /// - Returns: What `body` returned.
    /// - Throws: ``HeadlessClientError/closed`` at once, with `body` not run, when the client was closed;
    ///   ``/FTWSocketLoop/EventLoopError`` when the signals cannot be watched (the process is out of descriptors); what
    ///   `body` threw, after the close (after a signal, typically `CancellationError` from a sleep it was in);
    ///   otherwise a service's failure, such as ``/FTWBus/ServiceError/alreadyRunning(_:)`` when the client ran before.
    public func run<Value>(
        shutdownSignals: [ShutdownSignal] = [],
        isolation: isolated (any Actor)? = #isolation,
        _ body: (HeadlessClient) async throws -> Value
    ) async throws -> Value {
        guard !lifetime.isClosing else { throw HeadlessClientError.closed }
        let bodyTask = withUnsafeCurrentTask { task in task.map(SignalShutdown.BodyTask.init) }
        let shutdown = try SignalShutdown(shutdownSignals, client: self, body: bodyTask)
        _ = await launch()
        // Not a child task: the caller's cancellation must not reach the session before the close has sent its
        // close frame. It is awaited below, so it never outlives this call.
        let services = Task { try await self.run() }
        let outcome: Result<Value, any Error>
        do {
            outcome = .success(try await body(self))
        } catch {
            outcome = .failure(error)
        }
        await shutdown?.stop()
        await close()
        let ran = await services.result
        let value = try outcome.get()
        // A close that came before the services started (a signal during the launch) is this scope's own end.
        if case .failure(let error) = ran, !(error is HeadlessClientError) { throw error }
        return value
    }

    /// Closes the client: every service seals what must survive (as in the background), the session closes its
    /// connection with a close frame (1000) and waits for the relay's answer (bounded by the carrier's own wait),
    /// and then ``run()`` returns and every observation ends. A second call waits for the first. Once the close has
    /// begun, ``run()`` and ``setPhase(_:)`` throw ``HeadlessClientError/closed`` and a new observation gives nothing.
    public func close() async {
        guard await lifetime.claimClose() else { return }
        await follow(.background)
        await session.close()
        lifetime.closed()
    }

    /// What the launch drew from the sealed files; nil before ``launch()``.
    public var drawnAtLaunch: DrawnFromFiles? { lifetime.drawn }

    /// Now on the client's wall clock (Unix ms): what every age the client's values carry is counted against.
    public var nowMs: Int64 { wallClock.nowMs }
}
