public import BoxProtocol
public import Bus
public import ClockSeam
public import SessionInterface

/// The live session: the app's one encrypted connection to its box, and the rules that keep the box's cost low.
///
/// It dials a carrier (the relay, or the in-process demo box), runs the Noise IK handshake, says `hello`, publishes
/// the live stream, and sends reads through the box's one API slot in `ReadOrder`, one at a time, after one display
/// frame, sharing equal reads. It follows the scene phase: it dials at `inactive` on the way back, keeps the session
/// through a glance, and closes it only in the background. A dropped carrier fails the reads on the wire and keeps
/// the queued ones for the next connection, which it dials after a full-jitter backoff. Every request frame it sends
/// is logged (category `asks`), published, and counted per stay in front.
///
/// ## Concurrency
/// An actor. ``run()`` is its service: one loop that reacts to one stream of inputs (timers and the nudges of
/// public methods), changes the state synchronously, and then starts the work the change asked for as child tasks of
/// its group — a connection's I/O, a timer — each with its own stop signal. Nothing awaits inside a state change, so
/// no state is read across a suspension. Public methods change the state on the actor, register their caller's
/// continuation, and nudge the loop. A connection's runner reports the same way, by a call on the actor
/// (`report(_:)`) rather than through the stream: it reads its carrier's next event only once the session has
/// handled the last, so the session never holds more than one (a flood waits in the carrier's inbox and TCP), and a
/// live frame costs no queue and no wake of the loop.
public actor LiveSession: BoxSession, ClientService {
    enum RunState: Sendable {
        /// Made; ``run()`` not called yet (reads and phases wait in the state).
        case ready
        /// The service loop runs.
        case running
        /// The service has ended; every call fails at once with `.cancelled`.
        case stopped
    }

    struct ReadWaiter: Sendable {
        let continuation: CheckedContinuation<Result<ReadAnswer, SessionError>, Never>
        let onChunk: (@Sendable (HistChunk) -> Void)?
    }

    struct CommandWaiter: Sendable {
        let continuation: CheckedContinuation<Result<CommandOutcome, SessionError>, Never>
        let cmdId: String
        var acked = false
    }

    /// What the session tells the client: connection changes, live frames, the stream's return and loss, pushed
    /// plans, session-wide errors, the end of the session, and every request frame sent.
    public nonisolated let events: EventBus<SessionEvent>
    /// Who the app is to the box; after the first accepted handshake its payload is empty (a known device), which
    /// is what the app keeps for the next launch.
    public internal(set) var identity: SessionIdentity
    /// Every request frame sent, in order: the asks log.
    public internal(set) var asks: [AskRecord] = []
    /// What the carriers moved, both ways.
    public internal(set) var traffic = CarrierTraffic()
    /// The last connection state published.
    public internal(set) var connectionState = ConnectionState.idle
    /// Why the last connection closed, other than by the app's own leaving (the background, a stop): what a caller
    /// that gives up waiting tells a person, since the session has dialled again by then.
    public internal(set) var lastClose: SessionError?

    let dialer: any CarrierDialer
    let configuration: SessionConfiguration
    let clock: any Clock<Duration>
    let wallClock: any WallClock
    let random: any RandomSource
    let log: any LogSink
    /// Time since the session was made, on `clock`: what the link's delay is measured in.
    let elapsed: @Sendable () -> Duration
    let inputs: BusStream<SessionInput>
    let inputContinuation: BusFeed<SessionInput>

    var runState = RunState.ready
    /// The scene phase last set; nil before the first.
    var phase: ScenePhase?
    /// The carrier being dialled or open; nil when none is.
    var connection: LiveConnection?
    /// Set when the box ended the session or speaks no protocol of ours: no dial until the next return.
    var halt: SessionError?
    var reconnect: ReconnectPolicy
    /// True from a return to the front until the next handshake starts (its deadline is the short one).
    var foregroundAttempt = false
    /// Handshakes in a row the box left unanswered while in its room, on a quiet link: enough of them is a refusal.
    var silentHandshakes = 0
    /// Where the session stands with its pairing code: offered next, greeting first, or known.
    var codeOffer: CodeOffer
    var generation = 0
    var connectionCount = 0
    /// The box's uptime in the last frame that carried it: commands expire relative to it.
    var lastUptimeMs: Int64 = 0
    /// The `controlRev` of the last snapshot: commands expect it.
    var controlRev: UInt64 = 0
    var slot = ReadSlot()
    var readWaiters: [Int: ReadWaiter] = [:]
    var commandWaiters: [Int: CommandWaiter] = [:]
    var nextWaiterID = 0
    var timers: [SessionTimer: (token: Int, stop: StopSignal)] = [:]
    var nextTimerToken = 0
    var effects: [SessionEffect] = []
    var stays = StayLedger()
    /// Connection runners started and not yet finished (a finished one has closed its carrier).
    var openRunners = 0
    /// Callers of ``close()`` waiting for the last runner to finish.
    var closeWaiters: [CheckedContinuation<Void, Never>] = []
    /// Where the session runs (``unownedExecutor``).
    let isolation: ActorIsolation

    /// Makes a session; nothing happens until ``run()`` runs and a phase in front is set.
    ///
    /// - Parameters:
    ///   - dialer: Opens carriers: `RelayDialer` to the relay, or the demo box's in-process dialer.
    ///   - identity: The keys and the handshake payload.
    ///   - configuration: What `hello` says and the numbers the rules run on.
    ///   - clock: Deadlines, backoffs and the display-frame wait.
    ///   - wallClock: Arrival times, the asks log, command ids.
    ///   - random: Backoff jitter and command ids.
    ///   - log: Where the asks log (category `asks`) and the connection's story (category `session`) go.
    ///   - events: The bus to publish on.
    ///   - executor: The serial executor shared with the client's models (a live client's event loop); nil for a
    ///     queue of the session's own.
    public init(
        dialer: any CarrierDialer,
        identity: SessionIdentity,
        configuration: SessionConfiguration,
        clock: any Clock<Duration>,
        wallClock: any WallClock,
        random: any RandomSource,
        log: any LogSink,
        events: EventBus<SessionEvent>,
        executor: (any SerialExecutor)?
    ) {
        isolation = ActorIsolation(sharing: executor)
        self.dialer = dialer
        self.identity = identity
        self.configuration = configuration
        self.clock = clock
        self.wallClock = wallClock
        self.random = random
        self.log = log
        self.events = events
        elapsed = Self.stopwatch(clock)
        codeOffer = CodeOffer(identity)
        reconnect = ReconnectPolicy(timing: configuration.timing, correctionLimit: configuration.epochCorrections)
        (inputs, inputContinuation) = BusStream.makeStream()
    }

    private static func stopwatch<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
        let origin = clock.now
        return { origin.duration(to: clock.now) }
    }

    /// Request frames per stay in front (`Stays`); index 0 is the first stay.
    public var requestsPerStay: [Int] { stays.counts }

    /// Runs the session until the task is cancelled, then closes any carrier and fails every pending call with
    /// `.cancelled`.
    ///
    /// - Throws: `ServiceError.alreadyRunning(_:)` when called a second time; the first run goes on.
    public func run() async throws(ServiceError) {
        guard case .ready = runState else { throw .alreadyRunning(serviceName) }
        runState = .running
        await withDiscardingTaskGroup { group in
            startEffects(in: &group)
            for await input in inputs {
                handle(input)
                startEffects(in: &group)
            }
            group.cancelAll()
        }
        stopEverything()
    }

    /// The session's word in logs and in the error a second ``run()`` throws.
    public nonisolated var serviceName: String { "session" }

    /// Nothing to do: the session seals nothing; what it learnt reaches the models on the bus.
    public func restore() async {}

    /// Nothing to do: the session seals nothing.
    public func persist() async {}

    /// Follows the app's scene phase: dial on the way back (at `inactive`, or at `active` if not yet connected),
    /// keep the session through a glance, close it in the background.
    public func setPhase(_ next: ScenePhase) {
        let previous = phase
        guard previous != next else { return }
        phase = next
        let returning = previous == nil || previous == .background
        switch next {
        case .background:
            enterBackground()
        case .inactive:
            stays.enter()
            if returning { returnToFront() }
            dialIfWanted()
        case .active:
            stays.enter()
            if returning { returnToFront() }
            dialIfWanted()
        }
        wake()
    }

    /// A return from the background (or the first phase in front): the next handshake gets the short deadline, and
    /// the watchdog waits for a first message from the relay.
    private func returnToFront() {
        foregroundAttempt = true
        arm(.foregroundSilence, after: configuration.timing.foregroundSilence)
    }

    /// Ends the use of the session (the end of a pairing, a greeting, or forgetting the site): it goes to the
    /// background, so its carrier closes with a close frame (1000), and this returns once that carrier is closed,
    /// after at most the carrier's own bounded wait for the relay's answer. Cancel ``run()`` only after this, or the
    /// socket is dropped and the relay reads a lost network (1006).
    public func close() async {
        setPhase(.background)
        guard openRunners > 0 else { return }
        await withCheckedContinuation { closeWaiters.append($0) }
    }

    /// A connection runner finished: its carrier is closed.
    private func runnerEnded() {
        openRunners -= 1
        guard openRunners == 0 else { return }
        let waiters = closeWaiters
        closeWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    public func hello() async -> HelloOK? {
        guard connection?.stage == .streaming else { return nil }
        return connection?.hello
    }

    /// Takes the next waiter id: one per call of ``readAnswer(_:order:onChunk:)`` or ``command(_:)``.
    func takeWaiterID() -> Int {
        nextWaiterID += 1
        return nextWaiterID
    }

    /// Nudges the loop to start the work a public method's state change asked for.
    func wake() {
        guard !effects.isEmpty else { return }
        inputContinuation.yield(.wake)
    }

    /// A connection runner's report (its dial's end, a carrier event, its carrier's end), handled at once on the
    /// actor; the loop is nudged only if the change asked for work.
    func report(_ input: SessionInput) {
        handle(input)
        wake()
    }

    func publish(_ event: SessionEvent) {
        if case .connection(let state) = event {
            connectionState = state
            if case .closed(let reason) = state, reason.code != .cancelled { lastClose = reason }
            log.log("session", atMs: wallClock.nowMs, "connection \(state)")
        }
        events.publish(event)
    }

    func handle(_ input: SessionInput) {
        switch input {
        case .wake:
            break
        case .dialed(let generation, let outcome):
            dialed(generation, outcome)
        case .carrier(let generation, let event):
            carrierEvent(event, generation: generation)
        case .carrierEnded(let generation, let reason):
            guard connection?.generation == generation else { return }
            connectionLost(SessionError(.carrierLost, reason), closeCode: nil)
        case .timer(let timer, let token):
            guard timers[timer]?.token == token else { return }
            timers[timer] = nil
            timerFired(timer)
        case .cancelWaiter(let id):
            cancelWaiter(id)
        }
    }

    private func startEffects(in group: inout DiscardingTaskGroup) {
        let pending = effects
        effects.removeAll()
        for effect in pending {
            switch effect {
            case .connect(let generation, let outbox, let stop):
                openRunners += 1
                group.addTask { [dialer] in
                    await ConnectionRunner.run(
                        generation: generation,
                        dialer: dialer,
                        outbox: outbox,
                        stop: stop,
                        session: self
                    )
                    await self.runnerEnded()
                }
            case .timer(let timer, let duration, let token, let stop):
                group.addTask { [clock, inputContinuation] in
                    await stop.race {
                        do { try await clock.sleep(for: duration) } catch { return }
                        inputContinuation.yield(.timer(timer, token: token))
                    }
                }
            }
        }
    }

    private func stopEverything() {
        runState = .stopped
        let stopped = SessionError(.cancelled, "the session stopped")
        endConnection(reason: stopped, failing: stopped)
        for timer in Array(timers.keys) { cancel(timer) }
        fail(readers: slot.drainQueue(), with: stopped)
        for id in Array(commandWaiters.keys) { settleCommand(id, .failure(stopped)) }
        let waiters = closeWaiters
        closeWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }
}
