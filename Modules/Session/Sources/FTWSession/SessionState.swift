import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWSessionInterface

/// Everything the live session knows, as one value, and the rules that change it.
///
/// Where the link stands is ``link``, a ``LinkStage`` whose cases hold only what each stage uses; beside it is what
/// the session keeps for its whole life (the asks log, the traffic, the callers, the timers, the stays, the identity
/// and its pairing code, the backoff's attempts, the configuration).
///
/// Each input (a phase, a read or a command asked, a dial's end, a carrier's event, a timer) is one mutating call
/// that changes the state synchronously and leaves what the world must do in ``actions``: publish an event, write a
/// log line, send bytes, dial, hang up, arm or stop a timer, answer a caller. Nothing here awaits, sleeps, touches a
/// socket or holds a continuation; the time and the jitter come from ``SessionEnvironment``, which a test fixes. So
/// the rules are tested as functions (an input in, actions out), and `LiveSession` is the thin actor that feeds the
/// inputs and performs the actions, with one place to hold the state whatever executor it runs on.
struct SessionState {
    /// Where the session's service stands.
    enum RunState: Sendable {
        /// Made; `run()` not called yet (reads and phases wait in the state).
        case ready
        /// The service loop runs, or ran: once it has ended, the link is ``LinkStage/stopped``.
        case running
    }

    /// A command on the wire: its idempotency key, and whether the box acknowledged it.
    struct PendingCommand: Sendable, Hashable {
        let cmdId: String
        var acked = false
    }

    let configuration: SessionConfiguration
    let environment: SessionEnvironment

    var runState = RunState.ready
    /// Who the app is to the box; after the first accepted handshake its payload is empty (a known device).
    var identity: SessionIdentity
    /// Every request frame sent, in order: the asks log.
    var asks: [AskRecord] = []
    /// What the carriers moved, both ways.
    var traffic = CarrierTraffic()
    /// The last connection state published.
    var connectionState = ConnectionState.idle
    /// Why the last connection closed, other than by the app's own leaving.
    var lastClose: SessionError?
    /// The scene phase last set; nil before the first.
    var phase: ScenePhase?
    /// Where the link stands, and what that stage uses.
    var link = LinkStage.idle
    var reconnect: ReconnectPolicy
    /// What a deadline that passed without the box's answer means.
    let silence: SilencePolicy
    /// Where the session stands with its pairing code: offered next, greeting first, or known.
    var codeOffer: CodeOffer
    var generation = 0
    var connectionCount = 0
    /// The box's uptime in the last frame that carried it: commands expire relative to it.
    var lastUptimeMs: Int64 = 0
    /// The `controlRev` of the last snapshot: commands expect it.
    var controlRev: UInt64 = 0
    var slot = ReadSlot()
    /// The callers of a read still waiting for its answer.
    var readers: Set<Int> = []
    /// The callers of a command still waiting for it to settle.
    var commands: [Int: PendingCommand] = [:]
    var nextWaiterID = 0
    /// The running timers and the token of each one's current arming.
    var timers: [SessionTimer: Int] = [:]
    var nextTimerToken = 0
    var stays = StayLedger()
    /// What the last inputs asked the world to do, in order; the actor takes them after each input.
    var actions: [SessionAction] = []

    init(identity: SessionIdentity, configuration: SessionConfiguration, environment: SessionEnvironment) {
        self.identity = identity
        self.configuration = configuration
        self.environment = environment
        codeOffer = CodeOffer(identity)
        reconnect = ReconnectPolicy(timing: configuration.timing, correctionLimit: configuration.epochCorrections)
        silence = SilencePolicy(
            timing: configuration.timing,
            silencesMeaningRefusal: configuration.silencesMeaningRefusal
        )
    }

    /// The actions asked for since the last call, in order.
    mutating func takeActions() -> [SessionAction] {
        defer { actions.removeAll() }
        return actions
    }

    /// Takes the next waiter id: one per read or command asked.
    mutating func takeWaiterID() -> Int {
        nextWaiterID += 1
        return nextWaiterID
    }

    /// Follows the app's scene phase: dial on the way back (at `inactive`, or at `active` if not yet connected),
    /// keep the session through a glance, close it in the background.
    mutating func setPhase(_ next: ScenePhase) {
        let previous = phase
        guard previous != next, !link.isStopped else { return }
        phase = next
        let returning = previous == nil || previous == .background
        switch next {
        case .background:
            enterBackground()
        case .inactive, .active:
            stays.enter()
            if returning, case .idle = link {
                returnToFront()
            } else {
                dialIfWanted()
            }
        }
    }

    /// A return from the background (or the first phase in front): the dial's first handshake gets the short
    /// deadline, and the watchdog waits for a first message from the relay.
    private mutating func returnToFront() {
        arm(.foregroundSilence, after: configuration.timing.foregroundSilence)
        dial(LinkStage.Approach(hurried: true), watchdog: .returnToFront)
    }

    /// Connection `generation`'s carrier ended without saying how (its stream finished, or a send failed).
    mutating func carrierEnded(generation: Int, reason: String) {
        guard link.holds(generation) else { return }
        connectionLost(SessionError(.carrierLost, reason), closeCode: nil)
    }

    /// Whether the stream is live now (its beats within the gap rule) or stale; nil before its first word.
    var liveness: StreamLiveness? { link.beats?.liveness }

    /// The box's answer to our hello, once the stream is up.
    var hello: HelloOK? { link.hello }

    /// Set when the box ended the session or speaks no protocol of ours: no dial until the next return.
    var halt: SessionError? { link.halt }

    /// A timer ran out; `arrivingBytes` is how much of a message the carrier had on its way (what a deadline's
    /// verdict weighs). A token that is not the timer's current arming is a stale wake-up.
    mutating func timerFired(_ timer: SessionTimer, token: Int, arrivingBytes: Int) {
        guard timers[timer] == token else { return }
        timers[timer] = nil
        switch timer {
        case .displayFrame: displayFrameEnded()
        case .readDeadline: readDeadlinePassed()
        case .readTotal: readDeadlinePassed(total: true)
        case .busyRetry: busyRetryDue()
        case .handshake: handshakeTimedOut(arrivingBytes: arrivingBytes)
        case .room: roomStayedEmpty()
        case .helloAnswer: helloUnanswered(arrivingBytes: arrivingBytes)
        case .foregroundSilence: foregroundStayedSilent(arrivingBytes: arrivingBytes)
        case .bootHello: bootHelloDue()
        case .redial: redialDue()
        case .beatSilence: judgeBeats()
        case .commandAck(let cmdId): commandAckMissed(cmdId)
        case .commandResult(let cmdId): commandResultMissed(cmdId)
        }
    }

    /// The service ended: the carrier closes, every timer stops, every caller fails with `.cancelled`.
    mutating func stop() {
        let stopped = SessionError(.cancelled, "the session stopped")
        endConnection(reason: stopped, failing: stopped)
        link = .stopped
        for timer in Array(timers.keys) { cancel(timer) }
        fail(readers: slot.drainQueue(), with: stopped)
        for id in Array(commands.keys) { settleCommand(id, .failure(stopped)) }
    }

    /// Starts `timer` (replacing a running one of the same key).
    mutating func arm(_ timer: SessionTimer, after duration: Duration) {
        cancel(timer)
        nextTimerToken += 1
        timers[timer] = nextTimerToken
        actions.append(.arm(timer, duration, token: nextTimerToken))
    }

    /// Stops `timer` if it runs.
    mutating func cancel(_ timer: SessionTimer) {
        guard timers.removeValue(forKey: timer) != nil else { return }
        actions.append(.cancel(timer))
    }

    mutating func publish(_ event: SessionEvent) {
        if case .connection(let state) = event {
            connectionState = state
            if case .closed(let reason) = state, reason.code != .cancelled { lastClose = reason }
            log("session", "connection \(state)")
        }
        actions.append(.publish(event))
    }

    mutating func log(_ category: String, _ message: String, atMs: Int64? = nil) {
        actions.append(.log(category: category, atMs: atMs ?? environment.nowMs, message))
    }

    /// Records one request frame: the asks log line (category `asks`), the event, the count of its stay.
    mutating func recordAsk(type: String, id: UInt32, detail: String) {
        let stay = stays.current
        let record = AskRecord(type: type, id: id, atMs: environment.nowMs, stay: stay, detail: detail)
        asks.append(record)
        stays.count(in: stay)
        log("asks", "stay \(stay) \(type) #\(id) \(detail)", atMs: record.atMs)
        publish(.asked(record))
    }
}
