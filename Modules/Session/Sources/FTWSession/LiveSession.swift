public import FTWBoxProtocol
public import FTWBus
public import FTWClockSeam
public import FTWSessionInterface
import Synchronization

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
/// An actor, and a thin one: everything it knows is one `SessionState` value, whose transitions are synchronous and
/// leave a list of `SessionAction`s; the actor feeds each input to the state, then performs the actions in order
/// (publish, log, send, answer a caller) and keeps what no value can hold (continuations, stop signals, the open
/// connection's outbox). ``run()`` is its service: one loop that reacts to one stream of inputs (timers and the
/// nudges of public methods) and then starts the work the state asked for as child tasks of its group — a
/// connection's I/O, a timer — each with its own stop signal. Nothing awaits inside a transition, so no state is read
/// across a suspension. Public methods change the state on the actor, register their caller's
/// continuation, and nudge the loop. A connection's runner reports the same way, by a call on the actor
/// (`report(_:)`) rather than through the stream: it reads its carrier's next event only once the session has
/// handled the last, so the session never holds more than one (a flood waits in the carrier's inbox and TCP), and a
/// live frame costs no queue and no wake of the loop.
public actor LiveSession: BoxSession, ClientService {
    struct ReadWaiter: Sendable {
        let continuation: CheckedContinuation<Result<ReadAnswer, SessionError>, Never>
        let onChunk: (@Sendable (HistChunk) -> Void)?
    }

    /// The open connection's I/O: where its sealed messages go, what ends its runner, and its carrier once dialled
    /// (asked how many bytes of a message are on their way when a deadline passes).
    struct ConnectionIO: Sendable {
        let generation: Int
        let outbox: AsyncStream<[UInt8]>.Continuation
        let stop: StopSignal
        var carrier: (any Carrier)?
    }

    /// What the session tells the client: connection changes, live frames, the stream's return and loss, pushed
    /// plans, session-wide errors, the end of the session, and every request frame sent.
    public nonisolated let events: EventBus<SessionEvent>
    /// Who the app is to the box; after the first accepted handshake its payload is empty (a known device), which
    /// is what the app keeps for the next launch.
    public var identity: SessionIdentity { state.identity }
    /// Every request frame sent, in order: the asks log.
    public var asks: [AskRecord] { state.asks }
    /// What the carriers moved, both ways.
    public var traffic: CarrierTraffic { state.traffic }
    /// The last connection state published.
    public var connectionState: ConnectionState { state.connectionState }
    /// Whether the stream is live (its beats arrive within the gap rule) or stale since when; nil while no stream has
    /// said either (before `hello_ok`, or once its Noise session ended).
    public var liveness: StreamLiveness? { state.liveness }
    /// Why the last connection closed, other than by the app's own leaving (the background, a stop): what a caller
    /// that gives up waiting tells a person, since the session has dialled again by then.
    public var lastClose: SessionError? { state.lastClose }

    let dialer: any CarrierDialer
    let clock: any Clock<Duration>
    /// How the deadlines sleep on `clock`; asked of it at the first deadline when its maker did not say.
    package private(set) var deadlineSleep: DeadlineSleep
    let log: any LogSink
    let inputs: BusStream<SessionInput>
    let inputContinuation: BusFeed<SessionInput>

    // Unchecked exclusivity on what every live frame touches (here and below), as the socket's own buffers: the
    // actor alone touches it, and each access's dynamic check cost about 110 instructions, 700 a live frame.
    /// All the session knows; only its transitions change it.
    @exclusivity(unchecked) var state: SessionState
    /// The actions being performed, swapped with the state's list so neither allocates a new one each input.
    @exclusivity(unchecked) private var performing: [SessionAction] = []
    /// The callers of reads and commands, by the state's waiter ids.
    var readWaiters: [Int: ReadWaiter] = [:]
    var commandWaiters: [Int: CheckedContinuation<Result<CommandOutcome, SessionError>, Never>] = [:]
    /// The open connection's I/O; nil when the state has none.
    private var io: ConnectionIO?
    /// Each running timer's arming and its stop signal.
    private var timerStops: [SessionTimer: (token: Int, stop: StopSignal)] = [:]
    /// The stream's gap rule (``SessionTimer/beatSilence``): armed at each `hello_ok` and live stretch, put off by
    /// every beat, so one task keeps it for the run and each arming or beat moves it.
    @exclusivity(unchecked) private var beatDeadline: (deadline: MovableDeadline, stop: StopSignal)?
    /// Work for the loop to start as child tasks, after the transition that asked for it.
    @exclusivity(unchecked) private var effects: [SessionEffect] = []

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
        self.init(
            dialer: dialer,
            identity: identity,
            configuration: configuration,
            clock: clock,
            deadlineSleep: .unasked,
            wallClock: wallClock,
            random: random,
            log: log,
            events: events,
            executor: executor
        )
    }

    /// Makes a session whose maker says how its deadlines sleep on `clock` (``DeadlineSleep``), as the client's
    /// compositions on the real clocks do: they made the clock, so the session need not ask it.
    package init(
        dialer: any CarrierDialer,
        identity: SessionIdentity,
        configuration: SessionConfiguration,
        clock: any Clock<Duration>,
        deadlineSleep: DeadlineSleep,
        wallClock: any WallClock,
        random: any RandomSource,
        log: any LogSink,
        events: EventBus<SessionEvent>,
        executor: (any SerialExecutor)?
    ) {
        isolation = ActorIsolation(sharing: executor)
        self.dialer = dialer
        self.clock = clock
        self.deadlineSleep = deadlineSleep
        self.log = log
        self.events = events
        state = SessionState(
            identity: identity,
            configuration: configuration,
            environment: SessionEnvironment(wallClock: wallClock, elapsed: Self.lazyStopwatch(clock), random: random)
        )
        (inputs, inputContinuation) = BusStream.makeStream()
    }

    /// Time on `clock` since the stopwatch was first read, at the first dial: what the link's delay is measured in,
    /// only ever as a difference. Started at first use, not with the session: naming the clock's `Instant` type costs
    /// a scan of the program's conformances (0.24 M instructions) that a launch need not pay before its first content.
    ///
    /// The reading closure is kept in a struct: a bare closure in the `Mutex`'s generic storage was wrapped in two
    /// more reabstraction thunks at every `withLock`, so each read walked (and kept) a chain one link longer than the
    /// last: a stopwatch read every few seconds cost 56 k instructions a read after a minute (seen in callgrind).
    private static func lazyStopwatch(_ clock: any Clock<Duration>) -> @Sendable () -> Duration {
        struct Started: Sendable {
            let read: @Sendable () -> Duration
        }
        let started = Mutex<Started?>(nil)
        return {
            let running = started.withLock { started in
                if let started { return started }
                let made = Started(read: stopwatch(clock))
                started = made
                return made
            }
            return running.read()
        }
    }

    private static func stopwatch<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
        let origin = clock.now
        return { origin.duration(to: clock.now) }
    }

    /// Request frames per stay in front (`Stays`); index 0 is the first stay.
    public var requestsPerStay: [Int] { state.stays.counts }

    /// Runs the session until the task is cancelled, then closes any carrier and fails every pending call with
    /// `.cancelled`.
    ///
    /// - Throws: `ServiceError.alreadyRunning(_:)` when called a second time; the first run goes on.
    public func run() async throws(ServiceError) {
        guard case .ready = state.runState else { throw .alreadyRunning(serviceName) }
        state.runState = .running
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
        guard state.phase != next else { return }
        state.setPhase(next)
        performActions()
        wake()
    }

    /// Tells the session the network changed: call it from the platform's path monitor (`NWPathMonitor`'s update
    /// handler on Apple platforms, a netlink watch on Linux), on any change of the path.
    ///
    /// A dial or a backoff in progress (or a carrier not yet live) belongs to the old path: it is dropped and the
    /// session dials at once on the new one. A live stream is checked rather than torn down: a message must arrive
    /// within the watchdog's 2.5 s, or the carrier is dropped and dialled again. In the background, or halted, it
    /// does nothing.
    public func networkChanged() {
        state.networkChanged()
        performActions()
        wake()
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
        state.hello
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

    private func handle(_ input: SessionInput) {
        switch input {
        case .wake:
            break
        case .dialed(let generation, let outcome):
            if case .success(let carrier) = outcome, io?.generation == generation { io?.carrier = carrier }
            state.dialed(generation, outcome.map { _ in dialer.boxArrival })
        case .carrier(let generation, let event):
            state.carrierEvent(event, generation: generation)
            putOffBeatDeadline()
        case .carrierEnded(let generation, let reason):
            state.carrierEnded(generation: generation, reason: reason)
        case .timer(let timer, let token):
            if timerStops[timer]?.token == token { timerStops[timer] = nil }
            state.timerFired(timer, token: token, arrivingBytes: arrivingBytes(judging: timer))
        case .cancelWaiter(let id):
            state.cancelWaiter(id)
        }
        performActions()
    }

    /// How many bytes of a message the carrier has on their way, for the deadlines whose verdict weighs them.
    private func arrivingBytes(judging timer: SessionTimer) -> Int {
        switch timer {
        case .handshake, .helloAnswer, .foregroundSilence: io?.carrier?.arrivingBytes ?? 0
        default: 0
        }
    }

    /// Performs what the state's last transitions asked, in order.
    func performActions() {
        swap(&performing, &state.actions)
        // Moved out one at a time from the end, after one reversal: a for-in copies each action, and
        // removeAll(keepingCapacity:) then destroys them through the general replaceSubrange, some 600 instructions
        // for a live frame's one action.
        performing.reverse()
        while let action = performing.popLast() { perform(action) }
    }

    private func perform(_ action: SessionAction) {
        switch action {
        case .publish(let event):
            events.publish(event)
        case .log(let category, let atMs, let message):
            log.log(category, atMs: atMs, message)
        case .send(let bytes):
            io?.outbox.yield(bytes)
        case .connect(let generation):
            let (outbox, outboxContinuation) = AsyncStream.makeStream(of: [UInt8].self)
            let stop = StopSignal()
            io = ConnectionIO(generation: generation, outbox: outboxContinuation, stop: stop)
            effects.append(.connect(generation: generation, outbox: outbox, stop: stop))
        case .disconnect(let generation):
            guard let ending = io, ending.generation == generation else { return }
            ending.stop.stop()
            ending.outbox.finish()
            io = nil
        case .arm(.beatSilence, let duration, let token):
            moveBeatDeadline(after: duration, token: token)
        case .arm(let timer, let duration, let token):
            let stop = StopSignal()
            timerStops[timer] = (token, stop)
            effects.append(.timer(timer, duration, token: token, stop: stop))
        case .cancel(.beatSilence):
            beatDeadline?.deadline.disarm()
        case .cancel(let timer):
            timerStops.removeValue(forKey: timer)?.stop.stop()
        case .answer(let reader, let result):
            readWaiters.removeValue(forKey: reader)?.continuation.resume(returning: result)
        case .chunk(let reader, let chunk):
            readWaiters[reader]?.onChunk?(chunk)
        case .settle(let command, let result):
            commandWaiters.removeValue(forKey: command)?.resume(returning: result)
        }
    }

    /// Arms the gap rule's deadline `duration` from now: the running deadline moves, and a new one starts only when
    /// there is none yet or the running one cannot move there.
    private func moveBeatDeadline(after duration: Duration, token: Int) {
        let dueMs = state.environment.nowMs + duration.wholeMilliseconds
        if let beatDeadline, beatDeadline.deadline.move(toMs: dueMs, token: token) { return }
        beatDeadline?.deadline.end()
        beatDeadline?.stop.stop()
        let deadline = MovableDeadline(wallClock: state.environment.wallClock)
        let stop = StopSignal()
        _ = deadline.move(toMs: dueMs, token: token)
        beatDeadline = (deadline, stop)
        effects.append(.deadline(.beatSilence, deadline, stop: stop))
    }

    /// A live frame puts the gap rule's deadline off to the rule's new end (the beat plus 3.5 beats): one store, no
    /// action, no timer, and on the event loop's clock no wake while the beats come. The state's judgement stays
    /// the rule; this only spares it a look before the rule can have broken.
    private func putOffBeatDeadline() {
        guard let beatDeadline, let dueMs = state.link.beats?.silentFromMs else { return }
        beatDeadline.deadline.putOff(toMs: dueMs)
    }

    /// Keeps `timer` on `deadline` for the run, on the actor: each time it runs out the state judges it at once (as a
    /// runner's report), and an arming the judgement asks for is a store the deadline's task reads next, so a
    /// judgement costs the task one wake and no hop through the loop.
    private func keep(_ timer: SessionTimer, on deadline: MovableDeadline) async {
        await deadline.run(clock: clock, moving: deadlineSleep.movingClock(of: clock)) { token in
            report(.timer(timer, token: token))
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
            case .deadline(let timer, let deadline, let stop):
                group.addTask { await stop.race { await self.keep(timer, on: deadline) } }
            }
        }
    }

    private func stopEverything() {
        state.stop()
        performActions()
        let waiters = closeWaiters
        closeWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }
}
