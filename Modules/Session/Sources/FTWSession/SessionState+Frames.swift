import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWNoise
import FTWSessionInterface

extension SessionState {
    /// Puts bytes as they are (message 1) in the connection's outbox.
    mutating func send(raw message: [UInt8]) {
        guard link.carrier != nil else { return }
        actions.append(.send(message))
        traffic.sentMessages += 1
        traffic.sentBytes += message.count
    }

    /// Frames, seals and sends `message` on its lane: lane 0 in the session's bucket, bulk in the smallest that
    /// holds it.
    ///
    /// - Throws: `SessionError` with `.requestTooLarge` when the message fits no frame, `.carrierLost` when no
    ///   Noise session is open (frames are never kept for a later one).
    mutating func transmit(_ message: Message, id: UInt32?) throws(SessionError) {
        guard link.isSessionOpen else {
            throw SessionError(.carrierLost, "no session is up: a frame is never kept for a later one")
        }
        let frame: [UInt8]
        do {
            frame = try FrameCodec.encode(message, id: id, controlBucket: configuration.subscription.bucket)
        } catch {
            throw SessionError(
                .requestTooLarge,
                "\(message.type) does not fit a frame: \(error.message)",
                cause: error
            )
        }
        let sealed: [UInt8]?
        do {
            sealed = try link.seal(frame)
        } catch {
            connectionLost(
                SessionError(.carrierLost, "the Noise session is spent: \(error.message)", cause: error),
                closeCode: nil
            )
            throw SessionError(.carrierLost, "the Noise session is spent")
        }
        if let sealed { send(raw: sealed) }
    }

    mutating func sendHello() {
        let hello = Hello(
            proto: configuration.protocolRange,
            app: AppInfo(build: configuration.build, ua: "native"),
            locales: configuration.locales,
            sub: configuration.subscription
        )
        try? transmit(.hello(hello), id: nil)
    }

    mutating func frameArrived(_ bytes: [UInt8]) {
        let (flags, id, message): (FrameFlags, UInt32?, Message)
        do {
            (flags, id, message) = try FrameCodec.decodeMessage(bytes)
        } catch {
            return unreadableFrame(bytes, error)
        }
        switch message {
        case .helloOK(let hello):
            helloArrived(hello)
        case .snap(let snap):
            controlRev = snap.controlRev
            live(.snap(snap), uptimeMs: snap.uptimeMs)
        case .delta(let delta):
            live(.delta(delta, truncated: flags.contains(.truncated)), uptimeMs: delta.uptimeMs)
        case .tick(let tick):
            live(.tick(tick), uptimeMs: tick.uptimeMs)
        case .plan(let plan) where id == nil:
            publish(.planPushed(plan))
        case .error(let body) where id == nil:
            publish(.boxError(body))
            if body.code == .unknownOp, link.isGreeting { helloRefused(body) }
        case .sessionTerminate(let terminate):
            let reason = terminate.reason.known.rawValue
            publish(.terminated(reason: reason))
            haltSession(SessionError(.terminated, reason))
        case .cmdAck(let ack):
            commandAcknowledged(ack)
        case .cmdResult(let result):
            commandSettled(result)
        default:
            if let id { readProgressed(message, id: id) }
        }
    }

    /// A frame from the box whose message does not read (a field of the wrong type, a body that is not the
    /// message's): the box sent what it should not. Dropped, it would read as silence, and the read it answers would
    /// fail only at its deadline as if the box had said nothing; so an answer on the id of the read holding the slot
    /// fails that read at once and the slot moves on, and a `hello_ok` ends the greeting at once. A frame whose
    /// envelope does not read names nothing to fail and is dropped, as is one for no read of ours (a late answer).
    private mutating func unreadableFrame(_ bytes: [UInt8], _ error: ProtocolError) {
        guard let frame = try? Frame.decode(bytes), let envelope = try? Envelope.decode(frame.payload) else { return }
        if let id = envelope.id {
            guard let read = slot.held, read.id == id else { return }
            return readAnswerUnreadable(
                id: id,
                SessionError(
                    .malformedAnswer,
                    "the box sent what it should not: a \(envelope.type) on \(read.request.wireType) #\(id) that"
                        + " does not read (\(error.message))",
                    cause: error
                )
            )
        }
        guard envelope.type == HelloOK.wireType, link.isGreeting else { return }
        boxFailed(
            SessionError(
                .boxMisbehaved,
                "the box sent what it should not: a hello_ok that does not read (\(error.message))",
                cause: error
            )
        )
    }

    mutating func helloArrived(_ hello: HelloOK) {
        cancel(.helloAnswer)
        let range = configuration.protocolRange
        guard range.min <= hello.proto, hello.proto <= range.max else {
            haltSession(
                SessionError(
                    .incompatibleProtocol,
                    "the box answered protocol \(hello.proto); this client speaks \(range.min) to \(range.max)"
                )
            )
            return
        }
        lastUptimeMs = hello.clock.uptimeMs
        let beats = BeatWatch(gapMs: configuration.boxGapMs, atMs: environment.nowMs)
        switch link.helloAnswered(hello, beats: beats, firstRequestID: configuration.firstRequestID) {
        case .ignore:
            return
        case .booting:
            if timers[.bootHello] == nil { arm(.bootHello, after: configuration.timing.bootHello) }
        case .streaming(let subscribe):
            cancel(.bootHello)
            publish(.connection(.streaming(hello)))
            arm(.beatSilence, after: .milliseconds(configuration.boxGapMs))
            if subscribe { try? transmit(.sub(configuration.subscription), id: nil) }
            pumpReads()
        }
    }

    /// The box answered the greeting with a session-wide `E_UNKNOWN_OP`: it refused this hello at once, and waiting
    /// for `hello_ok` until its deadline would only say later, and wrongly, that it did not answer. Close, and
    /// redial after the handshake's backoff (an update of either side may mend it).
    private mutating func helloRefused(_ body: ErrorBody) {
        boxFailed(
            SessionError(
                .helloRefused,
                "the box refused this app's hello at once (\(body.code)): it does not take this app's greeting;"
                    + " the app or the box needs an update",
                box: body
            )
        )
    }

    /// The box still boots: say hello again.
    mutating func bootHelloDue() {
        guard link.isGreeting else { return }
        sendHello()
        arm(.bootHello, after: configuration.timing.bootHello)
    }

    /// A live frame: publish it, and the stream's return on the connection's first snapshot.
    mutating func live(_ message: TelemetryFrame.Message, uptimeMs: Int64) {
        guard let number = link.number else { return }
        lastUptimeMs = uptimeMs
        let arrivalMs = environment.nowMs
        publish(.telemetry(TelemetryFrame(connection: number, arrivalMs: arrivalMs, message: message)))
        if let change = link.beat(atMs: arrivalMs) { streamWentLive(change) }
        if case .snap = message, link.snapArrived() { publish(.streamReturned(connection: number)) }
    }

    /// A beat made the stream live (its first, or the first after a silence): said, and the rule's deadline armed
    /// again from it (while live, the deadline re-arms itself).
    private mutating func streamWentLive(_ change: StreamLiveness) {
        publish(.liveness(change))
        log("session", "live: a beat arrived")
        arm(.beatSilence, after: .milliseconds(configuration.boxGapMs))
    }

    /// The gap rule's deadline came: stale when no beat arrived within it, else judged again at the rule's end from
    /// the last beat.
    mutating func judgeBeats() {
        guard let (change, againInMs) = link.judgeBeats(atMs: environment.nowMs) else { return }
        if let change {
            publish(.liveness(change))
            log("session", "stale: no beat within \(configuration.boxGapMs) ms")
        }
        if let againInMs { arm(.beatSilence, after: .milliseconds(againInMs)) }
    }
}
