import FTWBoxProtocol
import FTWNoise
import FTWSessionInterface

/// Where the session's link to its box stands, as one value whose cases hold only what that stage uses; its
/// transitions are functions that move it and return what the session must do (grpc-swift-nio-transport's
/// `Subchannel.State` and its `On…` results are the model). What the session keeps for its whole life (the asks log,
/// the traffic, the callers, the timers, the stays, the identity and its pairing code, the backoff's attempts, the
/// configuration) stays beside the stage, in ``SessionState``, whose rules perform what the stage returns.
///
/// Once these were fields side by side (`connection`, `halt`, `beats`, `silentHandshakes`, `foregroundAttempt`,
/// `watchdogFrom`, the carrier's `stage`, `channel`, `number`, `hello`, `requestIDs`, `junk`, `awaitedBox`…), and any
/// combination could be written. The cases make these impossible:
/// - a carrier while backing off, halted, stopped or idle, and a pending redial beside a carrier (`connection` with
///   `timers[.redial]`, `halt` or a stop);
/// - a halt beside a carrier or a backoff, and a dial or a backoff after the session stopped;
/// - beats (the gap rule's `BeatWatch`) without a handshake done and a `hello_ok` from a box that is up;
/// - silent handshakes counted while greeting or streaming: only the stages before a handshake is done carry the run;
/// - the short deadline (`foregroundAttempt`) pending once a handshake started, or with no dial to come;
/// - the return's watchdog (`watchdogFrom`, `anythingArrived`) outside a carrier whose first message it awaits: never
///   while backing off, handshaking or greeting;
/// - a Noise channel while dialling or waiting for the room; a connection number before the handshake is done; a
///   `hello`, request ids or a `sub` before the stream is up; a stream whose first frame is not yet delivered;
/// - the pairing code's offer and the handshake's deadline outside a handshake; junk counted outside the deadlines
///   that weigh it (the handshake's and hello's);
/// - the box's awaited arrival once it is in the room, and a room's delay without a carrier.
enum LinkStage: Sendable {
    /// No carrier, none wanted yet: before the first phase in front, or in the background.
    case idle
    /// The dial runs; only its attachment or its failure may follow.
    case dialling(Attempt)
    /// The carrier is attached and the box is not (yet, or any more) in the room; `ready` starts a handshake. While
    /// `measuring`, the room's deadline runs for the dial's first wait, and a `ready` measures the link's delay.
    case awaitingRoom(Attempt, measuring: Bool)
    /// The carrier is in this hour's room before the relay has moved the box there (it attached `attachedAfter` into
    /// the dial): the room's deadline counts from the box's `arrival`.
    case awaitingBox(Attempt, BoxArrival, attachedAfter: Duration)
    /// Message 1 is out.
    case handshaking(Handshake)
    /// The handshake is done and `hello` is out.
    case greeting(Greeting)
    /// `hello_ok` came from a box that is up: reads may go out.
    case streaming(Stream)
    /// No carrier: the next dial waits.
    case backingOff(BackingOff)
    /// The box ended the session or speaks no protocol of ours: no dial until the next return to the front.
    case halted(SessionError)
    /// The service ended: nothing moves any more.
    case stopped

    /// A fresh dial of carrier `generation`.
    static func dialling(
        generation: Int,
        dialStarted: Duration,
        approach: Approach,
        watchdog: WatchdogMoment?
    ) -> LinkStage {
        .dialling(
            Attempt(
                carrier: Carrier(generation: generation, dialStarted: dialStarted),
                approach: approach,
                watchdog: watchdog
            )
        )
    }

    /// The carrier dialled or open, if any.
    var carrier: Carrier? {
        switch self {
        case .dialling(let attempt), .awaitingRoom(let attempt, _), .awaitingBox(let attempt, _, _): attempt.carrier
        case .handshaking(let handshake): handshake.carrier
        case .greeting(let greeting): greeting.carrier
        case .streaming(let stream): stream.carrier
        case .idle, .backingOff, .halted, .stopped: nil
        }
    }

    /// Whether carrier `generation` is the one dialled or open: a report of another is stale.
    func holds(_ generation: Int) -> Bool {
        carrier?.generation == generation
    }

    /// Whether carrier `generation`'s dial runs.
    func isDialling(_ generation: Int) -> Bool {
        if case .dialling(let attempt) = self { return attempt.carrier.generation == generation }
        return false
    }

    /// Whether a Noise session is open (the handshake done): frames may be sealed.
    var isSessionOpen: Bool { number != nil }

    var isStopped: Bool {
        if case .stopped = self { return true }
        return false
    }

    var isGreeting: Bool {
        if case .greeting = self { return true }
        return false
    }

    var isStreaming: Bool {
        if case .streaming = self { return true }
        return false
    }

    /// Why the session halted, while it is.
    var halt: SessionError? {
        if case .halted(let error) = self { return error }
        return nil
    }

    /// The box's answer to our hello, once the stream is up.
    var hello: HelloOK? {
        if case .streaming(let stream) = self { return stream.hello }
        return nil
    }

    /// The stream's beats, while it is up.
    var beats: BeatWatch? {
        if case .streaming(let stream) = self { return stream.beats }
        return nil
    }

    /// The connection number, once the handshake is done.
    var number: Int? {
        switch self {
        case .greeting(let greeting): greeting.number
        case .streaming(let stream): stream.number
        default: nil
        }
    }

    /// What the next dial would inherit if this stage ended now; nil where no dial follows.
    var approach: Approach? {
        switch self {
        case .dialling(let attempt), .awaitingRoom(let attempt, _), .awaitingBox(let attempt, _, _): attempt.approach
        case .handshaking(let handshake): Approach(silentHandshakes: handshake.silentHandshakes)
        case .greeting, .streaming: Approach()
        case .backingOff(let backingOff): backingOff.approach
        case .idle, .halted, .stopped: nil
        }
    }

    /// The dial of carrier `generation` attached: wait for the box in its room, from its `arrival` when the relay
    /// has yet to move it there (`elapsed` is the session's clock now).
    mutating func attached(_ generation: Int, arrival: BoxArrival?, elapsed: Duration) -> OnAttached {
        guard case .dialling(let attempt) = self, attempt.carrier.generation == generation else { return .stale }
        guard let arrival else {
            self = .awaitingRoom(attempt, measuring: true)
            return .waitForReady
        }
        self = .awaitingBox(attempt, arrival, attachedAfter: elapsed - attempt.carrier.dialStarted)
        return .waitForBox(arrival, watched: attempt.watchdog != nil)
    }

    /// What the return's watchdog counts from while it waits for this carrier's first message; nil when none waits.
    var watchdog: WatchdogMoment? {
        switch self {
        case .dialling(let attempt), .awaitingRoom(let attempt, _), .awaitingBox(let attempt, _, _): attempt.watchdog
        case .streaming(let stream): stream.watchdog
        default: nil
        }
    }

    /// Something arrived on the carrier: whether a watchdog was waiting for it (and must stop).
    mutating func heard() -> Bool {
        guard watchdog != nil else { return false }
        switch self {
        case .dialling(var attempt):
            attempt.watchdog = nil
            self = .dialling(attempt)
        case .awaitingRoom(var attempt, let measuring):
            attempt.watchdog = nil
            self = .awaitingRoom(attempt, measuring: measuring)
        case .awaitingBox(var attempt, let arrival, let attachedAfter):
            attempt.watchdog = nil
            self = .awaitingBox(attempt, arrival, attachedAfter: attachedAfter)
        default:
            _ = withStream { $0.watchdog = nil }
        }
        return true
    }

    /// The box is in the room (`elapsed` and `nowMs` now): a handshake starts, after ending the Noise session a
    /// rejoining box has dropped. The stage waits for ``handshakeStarted(channel:offeredCode:deadline:)``.
    mutating func roomReady(elapsed: Duration, nowMs: Int64) -> OnRoomReady {
        switch self {
        case .awaitingRoom(var attempt, let measuring):
            if measuring { attempt.carrier.roomDelay = elapsed - attempt.carrier.dialStarted }
            self = .awaitingRoom(attempt, measuring: false)
            return .handshake(hurried: attempt.approach.hurried, roomDelay: attempt.carrier.roomDelay, ended: nil)
        case .awaitingBox(var attempt, let arrival, let attachedAfter):
            attempt.carrier.roomDelay = Self.linkDelay(
                dial: elapsed - attempt.carrier.dialStarted,
                arrival: arrival,
                attachedAfter: attachedAfter,
                nowMs: nowMs
            )
            self = .awaitingRoom(attempt, measuring: false)
            return .handshake(hurried: attempt.approach.hurried, roomDelay: attempt.carrier.roomDelay, ended: nil)
        case .handshaking, .greeting, .streaming:
            guard let ended = endSession() else { return .ignore }
            return .handshake(hurried: false, roomDelay: carrier?.roomDelay, ended: ended)
        case .idle, .dialling, .backingOff, .halted, .stopped:
            return .ignore
        }
    }

    /// How long the relay took to let this phone into the room with its box, the dial having taken `dial` so far: the
    /// link's delay as this phone can see it. A box that came at the hour's turn spent part of that wait on its own
    /// way in (the relay's move, then its rejoin wait of up to 5 s, which the phone cannot see), so the link is judged
    /// on what it surely took: the attachment, or the time `ready` came after the box was due, whichever is longer. A
    /// `ready` before the move was due came from a box already there: all of the wait was the link's.
    private static func linkDelay(
        dial: Duration,
        arrival: BoxArrival,
        attachedAfter: Duration,
        nowMs: Int64
    ) -> Duration {
        guard nowMs >= arrival.movesAtMs else { return dial }
        return max(attachedAfter, .milliseconds(nowMs - arrival.dueByMs))
    }

    /// Message 1 is out on `channel`, under `deadline`.
    mutating func handshakeStarted(channel: SecureChannel, offeredCode: Bool, deadline: Duration) {
        guard case .awaitingRoom(let attempt, _) = self else { return }
        self = .handshaking(
            Handshake(
                carrier: attempt.carrier,
                silentHandshakes: attempt.approach.silentHandshakes,
                channel: channel,
                offeredCode: offeredCode,
                deadline: deadline
            )
        )
    }

    /// The relay says the box left: the Noise session ends, and the carrier waits for `ready` again; nil when no
    /// Noise session ran.
    mutating func boxLeft() -> EndedSession? {
        switch self {
        case .handshaking, .greeting, .streaming: endSession()
        default: nil
        }
    }

    /// The room's deadline passed without `ready`: whether the carrier still waits for the box (then it is offline).
    mutating func roomStayedEmpty() -> Bool {
        switch self {
        case .awaitingRoom(let attempt, _), .awaitingBox(let attempt, _, _):
            self = .awaitingRoom(attempt, measuring: false)
            return true
        default:
            return false
        }
    }

    /// Ends the running Noise session: the carrier waits for `ready` again, carrying the handshake's silences.
    private mutating func endSession() -> EndedSession? {
        let ended: EndedSession
        switch self {
        case .handshaking(let handshake):
            ended = EndedSession(offeredCode: handshake.offeredCode, returned: false)
        case .greeting(let greeting):
            ended = EndedSession(offeredCode: false, returned: greeting.returned)
        case .streaming(let stream):
            ended = EndedSession(offeredCode: false, returned: stream.returned)
        default:
            return nil
        }
        guard let carrier, let approach else { return nil }
        self = .awaitingRoom(Attempt(carrier: carrier, approach: approach), measuring: false)
        return ended
    }

    /// The carrier ends (the stage is idle after): which one, what its Noise session was, what the next dial inherits;
    /// nil when there was none.
    mutating func end() -> Ended? {
        guard let generation = carrier?.generation, let approach else { return nil }
        let session: EndedSession
        switch self {
        case .handshaking(let handshake): session = EndedSession(offeredCode: handshake.offeredCode, returned: false)
        case .greeting(let greeting): session = EndedSession(offeredCode: false, returned: greeting.returned)
        case .streaming(let stream): session = EndedSession(offeredCode: false, returned: stream.returned)
        default: session = EndedSession(offeredCode: false, returned: false)
        }
        self = .idle
        return Ended(generation: generation, session: session, approach: approach)
    }

    /// Takes one binary message through the Noise channel, in place (a copy would hold its transport's cipher twice,
    /// see `SecureChannel.takeSession`); nil when no channel runs.
    mutating func receive(_ bytes: [UInt8]) -> SecureChannel.Received? {
        withStream { $0.channel.receive(bytes) } ?? withGreeting { $0.channel.receive(bytes) }
            ?? withHandshake { $0.channel.receive(bytes) }
    }

    /// Seals one frame on the open Noise session, in place; nil when none is open.
    ///
    /// - Throws: `NoiseError` when the session is spent (it must end).
    mutating func seal(_ frame: [UInt8]) throws(NoiseError) -> [UInt8]? {
        var failure: NoiseError?
        let sealed =
            withStream { Self.seal(frame, on: &$0.channel, failure: &failure) }
            ?? withGreeting { Self.seal(frame, on: &$0.channel, failure: &failure) }
        if let failure { throw failure }
        return sealed ?? nil
    }

    /// `frame` sealed on `channel`, or nil with `failure` set.
    private static func seal(_ frame: [UInt8], on channel: inout SecureChannel, failure: inout NoiseError?) -> [UInt8]?
    {
        do { return try channel.seal(frame) } catch {
            failure = error
            return nil
        }
    }

    /// A message no box sends arrived: counted against the running deadline (the handshake's or hello's).
    mutating func junkArrived() {
        if withHandshake({ $0.junk += 1 }) == nil { _ = withGreeting { $0.junk += 1 } }
    }

    /// The handshake's deadline judged `silentHandshakes` silences in a row so far.
    mutating func recordSilences(_ silentHandshakes: Int) {
        _ = withHandshake { $0.silentHandshakes = silentHandshakes }
    }

    /// Message 2 arrived: the handshake is done and this is connection `number`, greeting.
    mutating func handshakeDone(number: Int) {
        guard case .handshaking(let handshake) = self else { return }
        self = .greeting(Greeting(carrier: handshake.carrier, channel: handshake.channel, number: number))
    }

    /// A frame of ours arrived: whether it is this Noise session's first (the path and the box work).
    mutating func frameDelivered() -> Bool {
        guard case .greeting(let greeting) = self, !greeting.delivered else { return false }
        _ = withGreeting { $0.delivered = true }
        return true
    }

    /// `hello_ok` arrived: the stream is up, its beats watched by `beats`, unless the box still boots. Its request
    /// ids start at `firstRequestID`.
    mutating func helloAnswered(_ hello: HelloOK, beats: BeatWatch, firstRequestID: UInt32) -> OnHello {
        let booting = hello.mode == "booting"
        switch self {
        case .greeting(let greeting):
            guard !booting else { return .booting }
            self = .streaming(
                Stream(from: greeting, hello: hello, requestIDs: RequestIDCounter(first: firstRequestID), beats: beats)
            )
            return .streaming(subscribe: !hello.subscribed)
        default:
            return withStream { stream in
                stream.hello = hello
                guard !booting else { return .booting }
                stream.beats = beats
                let subscribe = !hello.subscribed && !stream.subscribed
                if subscribe { stream.subscribed = true }
                return .streaming(subscribe: subscribe)
            } ?? .ignore
        }
    }

    /// A live frame arrived at `atMs`: the change of liveness it made, if the stream is up.
    mutating func beat(atMs: Int64) -> StreamLiveness? {
        withStream { $0.beats.beat(atMs: atMs) } ?? nil
    }

    /// A snapshot arrived: whether it is this Noise session's first (the stream's return is said once).
    mutating func snapArrived() -> Bool {
        switch self {
        case .greeting(let greeting) where !greeting.returned: _ = withGreeting { $0.returned = true }
        case .streaming(let stream) where !stream.returned: _ = withStream { $0.returned = true }
        default: return false
        }
        return true
    }

    /// The gap rule's deadline came at `atMs`: the change to say, and when to judge again; nil when no stream is up.
    mutating func judgeBeats(atMs: Int64) -> (change: StreamLiveness?, againInMs: Int64?)? {
        withStream { $0.beats.judge(atMs: atMs) }
    }

    /// The stream's next request id; nil when no stream is up.
    mutating func takeRequestID() -> UInt32? {
        withStream { $0.requestIDs.take() }
    }

    /// The network changed (in front, not halted).
    mutating func networkChanged() -> OnNetworkChange {
        if withStream({ $0.watchdog = .networkChange }) != nil { return .watchStream }
        switch self {
        case .dialling(let attempt), .awaitingRoom(let attempt, _), .awaitingBox(let attempt, _, _):
            return .redial(watching: attempt.watchdog)
        default:
            return .redial(watching: nil)
        }
    }

    /// The watchdog's wait ran out: what it counted from, if it was still waiting (it waits no more).
    mutating func watchdogFired() -> WatchdogMoment? {
        let moment = watchdog
        _ = heard()
        return moment
    }

    /// Runs `body` on the stream, moved out of the stage's memory and back, so the stage no longer holds it while it
    /// changes (a channel held twice would key its transport's cipher afresh for every frame: see
    /// `SecureChannel.takeSession`). Nil when no stream is up.
    ///
    /// Every live frame comes here twice (its bytes, its beat). Binding the payload and leaving the stage idle copied
    /// the stream and destroyed the original, 1.2 k instructions a frame more than the fields side by side cost (and
    /// `switch consume self` copied too); the pointer's `move()` takes the bytes as they are, and the stage's memory
    /// is initialised again before the closure returns, `body` seeing only the stream.
    private mutating func withStream<Result>(_ body: (inout Stream) -> Result) -> Result? {
        guard case .streaming = self else { return nil }
        return withUnsafeMutablePointer(to: &self) { stage in
            guard case .streaming(var stream) = stage.move() else { preconditionFailure("the stage was streaming") }
            defer { stage.initialize(to: .streaming(stream)) }
            return body(&stream)
        }
    }

    /// Runs `body` on the greeting, taken out of the stage and put back; nil when none runs.
    private mutating func withGreeting<Result>(_ body: (inout Greeting) -> Result) -> Result? {
        guard case .greeting(var greeting) = self else { return nil }
        self = .idle
        defer { self = .greeting(greeting) }
        return body(&greeting)
    }

    /// Runs `body` on the handshake, taken out of the stage and put back; nil when none runs.
    private mutating func withHandshake<Result>(_ body: (inout Handshake) -> Result) -> Result? {
        guard case .handshaking(var handshake) = self else { return nil }
        self = .idle
        defer { self = .handshaking(handshake) }
        return body(&handshake)
    }
}
