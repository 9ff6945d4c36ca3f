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
            connectionLost(reason: "the dial failed: \(failure.message)", closeCode: nil)
            return
        }
        connection?.stage = .awaitingRoom
    }

    func carrierEvent(_ event: CarrierEvent, generation: Int) {
        guard connection?.generation == generation else { return }
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
            connectionLost(
                reason: "the carrier closed (\(reason.isEmpty ? "\(code)" : "\(code) \(reason)"))",
                closeCode: code
            )
        }
    }

    /// The box is in the room: a new Noise session starts (after ending one that was running, since a box that
    /// rejoins has dropped its sessions).
    func roomReady() {
        guard let stage = connection?.stage, stage != .dialing else { return }
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
        publish(.connection(.closed(reason: "box offline")))
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
        send(raw: started.message1)
        let timing = configuration.timing
        arm(.handshake, after: foregroundAttempt ? timing.foregroundHandshake : timing.handshake)
        foregroundAttempt = false
        publish(.connection(.handshaking))
    }

    func received(_ bytes: [UInt8]) {
        guard var channel = connection?.channel else { return }
        let outcome = channel.receive(bytes)
        connection?.channel = channel
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
        identity.payload = []
        connectionCount += 1
        connection?.number = connectionCount
        connection?.stage = .greeting
        connection?.requestIDs = RequestIDCounter(first: configuration.firstRequestID)
        log.log("session", atMs: wallClock.nowMs, "handshake done: connection \(connectionCount)")
        sendHello()
    }

    /// The connection failed or the carrier closed under us: end it, and dial again when the policy says.
    func connectionLost(reason: String, closeCode: Int?) {
        endConnection(reason: reason, failing: SessionError(.carrierLost, reason))
        guard wantsCarrier else { return }
        arm(.redial, after: reconnect.delay(afterClose: closeCode, random: random.nextUnit()))
    }

    /// Ends the carrier (if any): its Noise session first, then the carrier itself, which the runner closes.
    func endConnection(reason: String, failing error: SessionError) {
        guard let ending = connection else { return }
        endNoiseSession(reason: reason, failing: error)
        ending.stop.stop()
        ending.outbox.finish()
        connection = nil
        publish(.connection(.closed(reason: reason)))
    }

    /// Ends what lived in one Noise session: the read on the wire, the commands, the stream, the session's timers.
    /// Queued reads stay queued.
    func endNoiseSession(reason: String, failing error: SessionError) {
        for timer in [SessionTimer.handshake, .bootHello, .displayFrame] { cancel(timer) }
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
        endConnection(reason: error.message, failing: error)
        fail(readers: slot.drainQueue(), with: error)
    }

    func enterBackground() {
        if let ended = stays.leave() {
            log.log("stays", atMs: wallClock.nowMs, "stay \(ended.stay): \(ended.requests) request frames")
        }
        cancel(.redial)
        let suspended = SessionError(.carrierLost, "the app went to the background")
        endConnection(reason: "background", failing: suspended)
        // A read still waiting would leave on the next return, however long away, for a name that may no longer
        // hold (a stale frame, then one more for the new name): it fails now, and the return asks by the rules then.
        fail(readers: slot.drainQueue(), with: suspended)
        halt = nil
        reconnect.reset()
        foregroundAttempt = false
        publish(.connection(.idle))
    }
}
