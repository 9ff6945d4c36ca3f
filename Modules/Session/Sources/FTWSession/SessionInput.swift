import FTWSessionInterface

/// Everything the session reacts to: what its own child tasks report (a dial's end, a carrier's events, a timer)
/// and the nudge a public method gives after it changed the state. Timers and nudges come through the loop's
/// stream; a connection runner's reports through a call on the actor, so none of them waits in a queue.
enum SessionInput: Sendable {
    /// A public method changed the state and may have work for the loop to start.
    case wake
    /// A dial of connection `generation` finished: a carrier is attached, or it failed.
    case dialed(generation: Int, Result<any Carrier, SessionError>)
    /// Something arrived on connection `generation`'s carrier.
    case carrier(generation: Int, CarrierEvent)
    /// Connection `generation`'s carrier ended without saying how (its stream finished, or a send failed).
    case carrierEnded(generation: Int, reason: String)
    /// A timer ran out; `token` tells a timer that was re-armed since from the current one.
    case timer(SessionTimer, token: Int)
    /// A caller of `read` or `command` went away.
    case cancelWaiter(Int)
}

/// The session's timers: at most one of each runs at a time, so a key names it.
enum SessionTimer: Sendable, Hashable {
    /// An idle slot's one-display-frame wait.
    case displayFrame
    /// The read holding the slot: its deadline or its silence.
    case readDeadline
    /// The read holding the slot: its total deadline, which no piece of the answer re-arms.
    case readTotal
    /// The wait before a busy read is sent again.
    case busyRetry
    /// The Noise handshake's deadline.
    case handshake
    /// The wait for `ready` on a carrier that attached to an empty room.
    case room
    /// The deadline for `hello_ok` once the handshake is done.
    case helloAnswer
    /// The wait for a first message after a return to the front (a NAT mapping may have died in the background).
    case foregroundSilence
    /// The next `hello` while the box boots.
    case bootHello
    /// The wait before the next dial.
    case redial
    /// The stream's gap rule: judged when it fires, re-armed from the last beat (never once per beat).
    case beatSilence
    /// A command's wait for `cmd.ack`.
    case commandAck(String)
    /// An acknowledged command's wait for `cmd.result`.
    case commandResult(String)
}

/// Work the loop starts as a child task of its group, after the state change that asked for it.
enum SessionEffect: Sendable {
    /// Dial, then carry connection `generation`'s messages both ways until `stop` fires or the carrier ends.
    case connect(generation: Int, outbox: AsyncStream<[UInt8]>, stop: StopSignal)
    /// Sleep `duration`, then report `timer` with `token`, unless `stop` fires first.
    case timer(SessionTimer, Duration, token: Int, stop: StopSignal)
    /// Keep `timer` on `deadline` for the run, reporting each arming's token as it runs out, until `stop` fires.
    case deadline(SessionTimer, MovableDeadline, stop: StopSignal)
}
