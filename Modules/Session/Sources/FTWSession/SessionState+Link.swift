import FTWBus
import FTWClockSeam
import FTWNoise
import FTWSessionInterface

extension SessionState {
    /// Whether the session wants a carrier: the app is in front, the box has not ended the session, and the service
    /// has not stopped.
    var wantsCarrier: Bool {
        (phase == .active || phase == .inactive) && link.halt == nil && !link.isStopped
    }

    /// Dials now if a carrier is wanted and the link is idle (none open, dialling, or waiting out a backoff).
    mutating func dialIfWanted() {
        guard wantsCarrier, case .idle = link else { return }
        dial(LinkStage.Approach(), watchdog: nil)
    }

    /// The backoff's wait is over: the next dial inherits what the last carried.
    mutating func redialDue() {
        guard wantsCarrier, case .backingOff(let backingOff) = link else { return }
        dial(backingOff.approach, watchdog: nil)
    }

    /// Dials a new carrier, carrying `approach` from the dials before, watched from `watchdog` if a watchdog runs.
    mutating func dial(_ approach: LinkStage.Approach, watchdog: WatchdogMoment?) {
        generation += 1
        link = .dialling(
            generation: generation,
            dialStarted: environment.elapsed(),
            approach: approach,
            watchdog: watchdog
        )
        actions.append(.connect(generation: generation))
        publish(.connection(.dialing(attempt: reconnect.attempt + 1)))
    }

    /// A dial of connection `generation` finished: the carrier attached (and the box comes into the room at
    /// `arrival` when the relay has yet to move it there), or it failed.
    mutating func dialed(_ generation: Int, _ outcome: Result<BoxArrival?, SessionError>) {
        guard link.isDialling(generation) else { return }
        switch outcome {
        case .failure(let failure):
            let code = Self.dialCodes.contains(failure.code) ? failure.code : .dialFailed
            let reason = SessionError(code, "the dial failed: \(failure.message)", cause: failure.cause ?? failure)
            if code == .relayNotTrusted, configuration.haltsOnUntrustedRelay { return haltSession(reason) }
            connectionLost(reason, closeCode: nil)
        case .success(let arrival):
            switch link.attached(generation, arrival: arrival, elapsed: environment.elapsed()) {
            case .stale: return
            case .waitForReady: arm(.room, after: configuration.timing.handshake)
            case .waitForBox(let arrival, let watched): awaitBox(arrival, watched: watched)
            }
        }
    }

    /// The carrier is in this hour's room before the relay has moved the box there (the hour's turn): it stays, and
    /// the empty room's deadline and a return's watchdog count from the box's arrival, since until then the room is
    /// empty by the relay's rule, not by a dead path or an absent box, and a redial would only spend the household's
    /// joins on another empty room. `ready` still starts the handshake the moment it comes.
    private mutating func awaitBox(_ arrival: BoxArrival, watched: Bool) {
        let wait = Duration.milliseconds(max(0, arrival.dueByMs - environment.nowMs))
        arm(.room, after: configuration.timing.handshake + wait)
        if watched { arm(.foregroundSilence, after: configuration.timing.foregroundSilence + wait) }
        publish(.connection(.awaitingBox(arrival)))
    }

    /// The dial failures a person is told apart; any other reads as `.dialFailed`.
    private static let dialCodes: Set<SessionError.Code> = [
        .relayUnreachable, .relayNotTrusted, .slowLink, .dialFailed,
    ]

    mutating func carrierEvent(_ event: CarrierEvent, generation: Int) {
        guard link.holds(generation) else { return }
        if link.heard() { cancel(.foregroundSilence) }
        switch event {
        case .control(RelayCloseCode.ready):
            roomReady()
        case .control(RelayCloseCode.gone):
            boxLeft()
        case .control:
            link.junkArrived()
        case .binary(let bytes):
            traffic.receivedMessages += 1
            traffic.receivedBytes += bytes.count
            received(bytes)
        case .closed(let code, let reason):
            publish(.carrierClosed(code: code, reason: reason))
            connectionLost(Self.closed(code: code, reason: reason), closeCode: code, closeReason: reason)
        }
    }

    /// Why the carrier closed, as a person is told: the relay's "slow down" by name, anything else by its code.
    private static func closed(code: Int, reason: String) -> SessionError {
        guard !RelayCloseCode.isSlowDown(code: code, reason: reason) else {
            return SessionError(
                .relaySlowDown,
                "the relay asked to slow down (4429 slow down): this address has used its joins for the relay's"
                    + " minute, so the phone tries again every few seconds until the minute turns"
            )
        }
        return SessionError(.carrierLost, "the carrier closed (\(reason.isEmpty ? "\(code)" : "\(code) \(reason)"))")
    }

    /// The box is in the room: a new Noise session starts (after ending one that was running, since a box that
    /// rejoins has dropped its sessions).
    mutating func roomReady() {
        guard
            case .handshake(let hurried, let roomDelay, let ended) = link.roomReady(
                elapsed: environment.elapsed(),
                nowMs: environment.nowMs
            )
        else { return }
        cancel(.room)
        reconnect.roomJoined()
        if let ended {
            endNoiseSession(
                ended,
                reason: "the box rejoined the room",
                failing: SessionError(.carrierLost, "the box rejoined")
            )
        }
        startHandshake(hurried: hurried, roomDelay: roomDelay)
    }

    /// The relay says the box left: the Noise session is over, the carrier stays and waits for `ready`.
    mutating func boxLeft() {
        guard let ended = link.boxLeft() else { return }
        endNoiseSession(ended, reason: "box offline", failing: SessionError(.carrierLost, "the box left the room"))
        publish(.connection(.closed(reason: SessionError(.boxOffline, "box offline"))))
    }

    /// The carrier attached, and the relay has not said `ready` within the handshake's deadline: the box is not in
    /// its room. The carrier stays and waits for `ready`, as after `gone`; the person is told the box is offline.
    mutating func roomStayedEmpty() {
        guard link.roomStayedEmpty() else { return }
        publish(
            .connection(
                .closed(reason: SessionError(.boxOffline, "the relay is up but the box is not in its room"))
            )
        )
    }

    /// The handshake's deadline passed without message 2: the silence policy's verdict (``SilencePolicy``), which
    /// reads the pairing code's rules only for a silence that counts (``CodeOffer``).
    ///
    /// A pairing code met by such a silence is never offered again on its own (every message 1 that carries it counts
    /// as a guess on the box): the next handshake greets as a known device, since the box may have enrolled this
    /// phone and lost its answer, and a silence to that greeting is the box's refusal of the code.
    mutating func handshakeTimedOut(arrivingBytes: Int) {
        guard case .handshaking(let handshake) = link else { return }
        let seen = SilencePolicy.Seen(
            step: .handshake,
            deadline: handshake.deadline,
            junk: handshake.junk,
            arrivingBytes: arrivingBytes,
            roomDelay: handshake.carrier.roomDelay
        )
        let judged = silence.handshake(seen, code: codeOffer, silentBefore: handshake.silentHandshakes)
        codeOffer = judged.code
        switch judged.verdict {
        case .unclear(let reason):
            link.recordSilences(0)
            boxFailed(reason)
        case .silence(let reason, let silentHandshakes):
            link.recordSilences(silentHandshakes)
            boxFailed(reason)
        case .refusal(let reason):
            haltSession(reason)
        }
    }

    /// `hello_ok` did not come in time after the handshake: close, and redial after the handshake's backoff.
    mutating func helloUnanswered(arrivingBytes: Int) {
        guard case .greeting(let greeting) = link else { return }
        boxFailed(silence.hello(junk: greeting.junk, arrivingBytes: arrivingBytes))
    }

    /// A return to the front (or a network change under a live stream) heard nothing from the relay in time: the
    /// path likely died (a phone's NAT mapping does in the background; the old network's path does when it changed),
    /// so the carrier is dropped and dialled once more, with the short deadline again. Bytes of a message on their
    /// way count as heard: the path lives, it is only slow.
    mutating func foregroundStayedSilent(arrivingBytes: Int) {
        guard wantsCarrier, let moment = link.watchdogFired(),
            let reason = silence.watchdog(from: moment, arrivingBytes: arrivingBytes)
        else { return }
        let approach = endConnection(
            reason: reason,
            failing: SessionError(.carrierLost, "the carrier heard nothing after the return")
        )
        cancel(.redial)
        var hurried = approach ?? LinkStage.Approach()
        hurried.hurried = true
        dial(hurried, watchdog: nil)
    }

    private mutating func startHandshake(hurried: Bool, roomDelay: Duration?) {
        var greeting = identity
        if !codeOffer.offersCode { greeting.payload = [] }
        let started: (SecureChannel, message1: [UInt8])
        do {
            started = try SecureChannel.start(greeting)
        } catch {
            haltSession(
                SessionError(.handshakeFailed, "the session's keys are unusable: \(error.message)", cause: error)
            )
            return
        }
        let deadline = silence.handshakeDeadline(
            hurried: hurried,
            codeKnown: codeOffer == .known,
            roomDelay: roomDelay
        )
        link.handshakeStarted(channel: started.0, offeredCode: codeOffer.offersCode, deadline: deadline)
        send(raw: started.message1)
        arm(.handshake, after: deadline)
        publish(.connection(.handshaking))
    }

    mutating func received(_ bytes: [UInt8]) {
        guard let outcome = link.receive(bytes) else { return }
        switch outcome {
        case .ignored:
            if !SecureChannel.isBoxShaped(bytes.count) { link.junkArrived() }
        case .established:
            handshakeDone()
        case .frame(let frame):
            if link.frameDelivered() { reconnect.frameDelivered() }
            frameArrived(frame)
        }
    }

    mutating func handshakeDone() {
        cancel(.handshake)
        codeOffer.accepted()
        arm(.helloAnswer, after: configuration.timing.helloAnswer)
        identity.payload = []
        connectionCount += 1
        link.handshakeDone(number: connectionCount)
        log("session", "handshake done: connection \(connectionCount)")
        sendHello()
    }

    /// The path failed (the dial, or the carrier closed under us with the relay's `closeCode` and `closeReason`): end
    /// the connection, and dial again when the policy says.
    mutating func connectionLost(_ reason: SessionError, closeCode: Int?, closeReason: String = "") {
        let approach = endConnection(reason: reason, failing: SessionError(.carrierLost, reason.message))
        guard wantsCarrier else { return }
        let jitter = environment.random.nextUnit()
        backOff(
            reconnect.delay(afterClose: closeCode, reason: closeReason, random: jitter),
            because: reason,
            approach: approach
        )
    }

    /// The box, in its room on a path that works, did not answer the handshake or hello in time, or answered what
    /// does not read: end the connection, and dial again after the handshake's backoff (3 s base), not the path's.
    mutating func boxFailed(_ reason: SessionError) {
        let approach = endConnection(reason: reason, failing: SessionError(.carrierLost, reason.message))
        guard wantsCarrier else { return }
        backOff(
            reconnect.delayAfterBoxFailed(random: environment.random.nextUnit()),
            because: reason,
            approach: approach
        )
    }

    /// Waits `delay` before the next dial, and says so: when, which attempt, and why.
    private mutating func backOff(_ delay: Duration, because reason: SessionError, approach: LinkStage.Approach?) {
        let untilMs = environment.nowMs + delay.wholeMilliseconds
        link = .backingOff(LinkStage.BackingOff(untilMs: untilMs, because: reason, approach: approach ?? .init()))
        arm(.redial, after: delay)
        guard delay > .zero else { return }
        let wait = RetryWait(nextTryAtMs: untilMs, attempt: reconnect.attempt + 1, because: reason)
        publish(.connection(.backingOff(wait)))
    }

    /// Ends the carrier (if any): its Noise session first, then the carrier itself, which the runner closes. Returns
    /// what the next dial inherits.
    @discardableResult
    mutating func endConnection(reason: SessionError, failing error: SessionError) -> LinkStage.Approach? {
        guard let ending = link.end() else { return nil }
        cancel(.room)
        cancel(.foregroundSilence)
        endNoiseSession(ending.session, reason: reason.message, failing: error)
        actions.append(.disconnect(generation: ending.generation))
        publish(.connection(.closed(reason: reason)))
        return ending.approach
    }

    /// Ends what lived in one Noise session: the read on the wire, the commands, the stream, the session's timers.
    /// Queued reads stay queued.
    private mutating func endNoiseSession(_ ended: LinkStage.EndedSession, reason: String, failing error: SessionError)
    {
        if ended.offeredCode { codeOffer.offerUnanswered() }
        for timer in [SessionTimer.handshake, .helloAnswer, .bootHello, .displayFrame, .beatSilence] { cancel(timer) }
        settleHeldRead(with: error)
        settleCommands(with: error)
        if ended.returned { publish(.streamLost(reason: reason)) }
    }

    /// The box ended the session, or speaks no protocol of ours: close, fail every read, and dial no more until
    /// the next return from the background.
    mutating func haltSession(_ error: SessionError) {
        cancel(.redial)
        endConnection(reason: error, failing: error)
        link = .halted(error)
        fail(readers: slot.drainQueue(), with: error)
    }

    mutating func enterBackground() {
        if let ended = stays.leave() {
            log("stays", "stay \(ended.stay): \(ended.requests) request frames")
        }
        cancel(.redial)
        let suspended = SessionError(.carrierLost, "the app went to the background")
        endConnection(reason: SessionError(.cancelled, "background"), failing: suspended)
        // A read still waiting would leave on the next return, however long away, for a name that may no longer
        // hold (a stale frame, then one more for the new name): it fails now, and the return asks by the rules then.
        fail(readers: slot.drainQueue(), with: suspended)
        link = .idle
        reconnect.reset()
        publish(.connection(.idle))
    }
}
