import Bus
import ClockSeam
import Noise
import SessionInterface

extension LiveSession {
    /// Whether the session wants a carrier: the app is in front and the box has not ended the session.
    var wantsCarrier: Bool {
        (phase == .active || phase == .inactive) && halt == nil
    }

    /// Dials now if a carrier is wanted and none is open, dialling, or waiting out a backoff.
    func dialIfWanted() {
        guard wantsCarrier, connection == nil, timers[.redial] == nil else { return }
        generation += 1
        let (outbox, outboxContinuation) = AsyncStream.makeStream(of: [UInt8].self)
        let stop = StopSignal()
        connection = LiveConnection(
            generation: generation,
            outbox: outboxContinuation,
            stop: stop,
            firstRequestID: configuration.firstRequestID
        )
        effects.append(.connect(generation: generation, outbox: outbox, stop: stop))
        publish(.connection(.dialing(attempt: reconnect.attempt + 1)))
    }

    func dialed(_ generation: Int, failure: SessionError?) {
        guard connection?.generation == generation, connection?.stage == .dialing else { return }
        if let failure {
            let code = Self.dialCodes.contains(failure.code) ? failure.code : .dialFailed
            connectionLost(SessionError(code, "the dial failed: \(failure.message)"), closeCode: nil)
            return
        }
        connection?.stage = .awaitingRoom
        connection?.heard = 0
        arm(.room, after: configuration.timing.handshake)
    }

    /// The dial failures a person is told apart; any other reads as `.dialFailed`.
    private static let dialCodes: Set<SessionError.Code> = [
        .relayUnreachable, .relayNotTrusted, .slowLink, .dialFailed,
    ]

    func carrierEvent(_ event: CarrierEvent, generation: Int) {
        guard connection?.generation == generation else { return }
        connection?.heard += 1
        if connection?.anythingArrived == false {
            connection?.anythingArrived = true
            cancel(.foregroundSilence)
        }
        switch event {
        case .control(RelayCloseCode.ready):
            roomReady()
        case .control(RelayCloseCode.gone):
            boxLeft()
        case .control:
            break
        case .binary(let bytes):
            traffic.receivedMessages += 1
            traffic.receivedBytes += bytes.count
            received(bytes)
        case .closed(let code, let reason):
            publish(.carrierClosed(code: code, reason: reason))
            connectionLost(
                SessionError(.carrierLost, "the carrier closed (\(reason.isEmpty ? "\(code)" : "\(code) \(reason)"))"),
                closeCode: code
            )
        }
    }

    /// The box is in the room: a new Noise session starts (after ending one that was running, since a box that
    /// rejoins has dropped its sessions).
    func roomReady() {
        guard let stage = connection?.stage, stage != .dialing else { return }
        cancel(.room)
        reconnect.roomJoined()
        if stage != .awaitingRoom {
            endNoiseSession(
                reason: "the box rejoined the room",
                failing: SessionError(.carrierLost, "the box rejoined")
            )
        }
        startHandshake()
    }

    /// The relay says the box left: the Noise session is over, the carrier stays and waits for `ready`.
    func boxLeft() {
        guard let stage = connection?.stage, stage != .dialing, stage != .awaitingRoom else { return }
        endNoiseSession(reason: "box offline", failing: SessionError(.carrierLost, "the box left the room"))
        publish(.connection(.closed(reason: SessionError(.boxOffline, "box offline"))))
    }

    /// The carrier attached, and the relay has not said `ready` within the handshake's deadline: the box is not in
    /// its room. The carrier stays and waits for `ready`, as after `gone`; the person is told the box is offline.
    func roomStayedEmpty() {
        guard connection?.stage == .awaitingRoom else { return }
        publish(
            .connection(
                .closed(reason: SessionError(.boxOffline, "the relay is up but the box is not in its room"))
            )
        )
    }

    /// The handshake's deadline passed: a slow link if messages were still arriving, else a silent box, and a
    /// refusal once the box has been silent to several handshakes in a row.
    ///
    /// A pairing code met by silence is a refusal at once, and the session halts: every message 1 that carries it
    /// counts as a guess on the box (five wrong ones burn the code), so it is never sent again on its own.
    func handshakeTimedOut() {
        guard connection?.stage == .handshaking else { return }
        let heard = connection?.heard ?? 0
        guard heard == 0 else {
            silentHandshakes = 0
            return connectionLost(
                SessionError(
                    .slowLink,
                    "the handshake timed out while \(heard) messages were still arriving: the link is too slow"
                ),
                closeCode: nil
            )
        }
        silentHandshakes += 1
        if !identity.payload.isEmpty {
            return haltSession(
                SessionError(.refused, "the box was in its room and did not answer the pairing code: it refused it")
            )
        }
        guard silentHandshakes >= configuration.silencesMeaningRefusal else {
            return connectionLost(
                SessionError(
                    .handshakeUnanswered,
                    "the box is in its room but did not answer the handshake in time (it may be busy or restarting)"
                ),
                closeCode: nil
            )
        }
        connectionLost(
            SessionError(
                .refused,
                "the box was in its room and left \(silentHandshakes) handshakes in a row unanswered on a quiet"
                    + " link: it no longer knows this phone"
            ),
            closeCode: nil
        )
    }

    /// `hello_ok` did not come in time after the handshake: close, and redial after the backoff.
    func helloUnanswered() {
        guard connection?.stage == .greeting else { return }
        let heard = connection?.heard ?? 0
        connectionLost(
            heard > 0
                ? SessionError(
                    .slowLink,
                    "hello went unanswered while \(heard) messages were still arriving: the link is too slow"
                )
                : SessionError(.helloUnanswered, "the box finished the handshake but did not answer hello in time"),
            closeCode: nil
        )
    }

    /// A return to the front heard nothing from the relay in time: the path likely died in the background (a
    /// phone's NAT mapping does), so the carrier is dropped and dialled once more, with the short deadline again.
    func foregroundStayedSilent() {
        guard wantsCarrier, let connection, !connection.anythingArrived else { return }
        endConnection(
            reason: SessionError(
                .carrierLost,
                "nothing arrived within \(configuration.timing.foregroundSilence) of the return: dialling again"
            ),
            failing: SessionError(.carrierLost, "the carrier heard nothing after the return")
        )
        cancel(.redial)
        foregroundAttempt = true
        dialIfWanted()
    }

    func startHandshake() {
        let started: (SecureChannel, message1: [UInt8])
        do {
            started = try SecureChannel.start(identity)
        } catch {
            haltSession(SessionError(.handshakeFailed, "the session's keys are unusable: \(error.message)"))
            return
        }
        connection?.channel = started.0
        connection?.stage = .handshaking
        connection?.heard = 0
        send(raw: started.message1)
        let timing = configuration.timing
        arm(.handshake, after: foregroundAttempt ? timing.foregroundHandshake : timing.handshake)
        foregroundAttempt = false
        publish(.connection(.handshaking))
    }

    func received(_ bytes: [UInt8]) {
        // In place: a copy of the channel would hold its transport's cipher twice, and the transport would key a
        // new one for the frame (see `SecureChannel.takeSession`).
        guard let outcome = connection?.channel?.receive(bytes) else { return }
        switch outcome {
        case .ignored:
            break
        case .established:
            handshakeDone()
        case .frame(let frame):
            if connection?.delivered == false {
                connection?.delivered = true
                reconnect.frameDelivered()
            }
            frameArrived(frame)
        }
    }

    func handshakeDone() {
        cancel(.handshake)
        silentHandshakes = 0
        connection?.heard = 0
        arm(.helloAnswer, after: configuration.timing.helloAnswer)
        identity.payload = []
        connectionCount += 1
        connection?.number = connectionCount
        connection?.stage = .greeting
        connection?.requestIDs = RequestIDCounter(first: configuration.firstRequestID)
        log.log("session", atMs: wallClock.nowMs, "handshake done: connection \(connectionCount)")
        sendHello()
    }

    /// The connection failed or the carrier closed under us: end it, and dial again when the policy says.
    func connectionLost(_ reason: SessionError, closeCode: Int?) {
        endConnection(reason: reason, failing: SessionError(.carrierLost, reason.message))
        guard wantsCarrier else { return }
        arm(.redial, after: reconnect.delay(afterClose: closeCode, random: random.nextUnit()))
    }

    /// Ends the carrier (if any): its Noise session first, then the carrier itself, which the runner closes.
    func endConnection(reason: SessionError, failing error: SessionError) {
        guard let ending = connection else { return }
        cancel(.room)
        cancel(.foregroundSilence)
        endNoiseSession(reason: reason.message, failing: error)
        ending.stop.stop()
        ending.outbox.finish()
        connection = nil
        publish(.connection(.closed(reason: reason)))
    }

    /// Ends what lived in one Noise session: the read on the wire, the commands, the stream, the session's timers.
    /// Queued reads stay queued.
    func endNoiseSession(reason: String, failing error: SessionError) {
        for timer in [SessionTimer.handshake, .helloAnswer, .bootHello, .displayFrame] { cancel(timer) }
        settleHeldRead(with: error)
        settleCommands(with: error)
        if connection?.returned == true { publish(.streamLost(reason: reason)) }
        connection?.channel = nil
        connection?.number = nil
        connection?.hello = nil
        connection?.subscribed = false
        connection?.returned = false
        connection?.delivered = false
        if connection != nil { connection?.stage = .awaitingRoom }
    }

    /// The box ended the session, or speaks no protocol of ours: close, fail every read, and dial no more until
    /// the next return from the background.
    func haltSession(_ error: SessionError) {
        halt = error
        cancel(.redial)
        endConnection(reason: error, failing: error)
        fail(readers: slot.drainQueue(), with: error)
    }

    func enterBackground() {
        if let ended = stays.leave() {
            log.log("stays", atMs: wallClock.nowMs, "stay \(ended.stay): \(ended.requests) request frames")
        }
        cancel(.redial)
        let suspended = SessionError(.carrierLost, "the app went to the background")
        endConnection(reason: SessionError(.cancelled, "background"), failing: suspended)
        // A read still waiting would leave on the next return, however long away, for a name that may no longer
        // hold (a stale frame, then one more for the new name): it fails now, and the return asks by the rules then.
        fail(readers: slot.drainQueue(), with: suspended)
        halt = nil
        reconnect.reset()
        silentHandshakes = 0
        foregroundAttempt = false
        publish(.connection(.idle))
    }
}
