import FTWBoxProtocol
import FTWClockSeam
import FTWClockSeamTesting
import FTWCrypto
import FTWNoise
import FTWSessionInterface
import FTWSessionTestSupport

/// A small box for the session's tests: a Noise responder and a frame codec on the box's end of in-memory
/// carriers, which records every frame it receives and answers from a script.
///
/// It says `ready` when a carrier arrives (unless told not to), answers message 1 from any phone whose payload it
/// accepts (or stays silent), says `hello_ok` and sends a snapshot, and answers request frames with the script's
/// replies — or holds them until ``answerHeld()``. Tests push anything else (ticks, garbage, closes) by hand.
actor ScriptedBox {
    /// One frame the box received from the app.
    struct Received: Sendable {
        var message: Message
        var id: UInt32?
        var lane: Lane
        /// The frame's size, padding included.
        var frameBytes: Int
        /// The Noise message's size on the carrier.
        var wireBytes: Int
        var atMs: Int64
        /// Which handshake (1, 2, …) it arrived on.
        var connection: Int
    }

    /// One frame the box sends.
    struct Reply: Sendable {
        var message: Message
        var id: UInt32?
        var flags: FrameFlags = []
    }

    /// How the box answers a request frame (`plan.get`, `price.get`, `hist.query`, `api.req`, `cmd`).
    typealias Script = @Sendable (Message, UInt32?) -> [Reply]

    private enum Side {
        case open(NoiseSession, connection: Int)
    }

    private struct Stream {
        let carrier: InMemoryCarrier
        var side: Side?
    }

    static let staticPrivateKey = [UInt8](repeating: 0x11, count: 32)
    static let staticPublicKey = (try? X25519.publicKey(privateKey: staticPrivateKey)) ?? []
    static let appPrivateKey = [UInt8](repeating: 0x22, count: 32)

    private let clock: ManualClock
    private let uptime: BoxUptime
    private var streams: [Stream] = []
    private var handshakeCount = 0
    private var held: [(stream: Int, replies: [Reply])] = []
    private var unanswered: (message1: [UInt8], stream: Int)?

    /// Every frame received, in order.
    private(set) var received: [Received] = []
    /// The payload of every message 1 the box accepted.
    private(set) var handshakePayloads: [[UInt8]] = []
    /// Whether new carriers hear `ready`.
    var saysReady = true
    /// When the box comes into the room (Unix ms): the relay's move at the hour's turn and the box's rejoin. A carrier
    /// that arrives earlier hears `ready` only then, one that arrives later at once; nil for a box already there.
    var boxJoinsAtMs: Int64?
    /// Whether the relay's join allowance for the phone's address is spent: a new carrier is closed at once with
    /// 4429 `slow down`, as the relay refuses a join over its 30 a minute, until the window turns (set false).
    var allowanceSpent = false
    /// Whether handshakes are answered; false is a refusing box's silence (the last message 1 is kept for
    /// ``answerHandshake()``).
    var answersHandshakes = true
    /// Whether `hello` is answered; false is a box that finishes Noise and then says nothing.
    var answersHello = true
    /// Whether request frames are answered now or kept for ``answerHeld()``.
    var holding = false
    /// The protocol version `hello_ok` names.
    var helloProto = 1
    /// The modes the next `hello_ok`s name, first used first; `full` once empty.
    var helloModes: [String] = []
    /// Whether `hello_ok` says the folded `sub` was taken.
    var helloSubscribed = true
    /// How request frames are answered.
    var script: Script = ScriptedBox.defaultScript

    init(clock: ManualClock) {
        self.clock = clock
        uptime = BoxUptime(clock: clock, startMs: 5_000)
    }

    /// The request frames received (what the session's asks log must equal).
    var requests: [Received] {
        received.filter { Self.requestTypes.contains($0.message.type) }
    }

    static let requestTypes: Set<String> = ["plan.get", "price.get", "hist.query", "api.req", "cmd"]

    /// Changes the box's knobs on the box.
    func configure(_ change: @Sendable (isolated ScriptedBox) -> Void) {
        change(self)
    }

    /// Serves every carrier the dialer opens until the task is cancelled.
    func serve(_ accepted: AsyncStream<InMemoryCarrier>) async {
        await withDiscardingTaskGroup { group in
            for await carrier in accepted {
                if allowanceSpent {
                    carrier.close(code: 4429, reason: "slow down")
                    continue
                }
                streams.append(Stream(carrier: carrier))
                let index = streams.count - 1
                if saysReady { sayReady(on: carrier, in: &group) }
                group.addTask {
                    for await event in carrier.incoming { await self.receive(event, stream: index) }
                }
            }
            group.cancelAll()
        }
    }

    /// `ready` on `carrier` once the box is in the room: now, or when it joins.
    private func sayReady(on carrier: InMemoryCarrier, in group: inout DiscardingTaskGroup) {
        let wait = (boxJoinsAtMs ?? clock.nowMs) - clock.nowMs
        guard wait > 0 else { return carrier.signal("ready") }
        group.addTask { [clock] in
            do { try await clock.sleep(for: .milliseconds(wait)) } catch { return }
            carrier.signal("ready")
        }
    }

    /// Sends every held reply, in the order the requests came.
    func answerHeld() async {
        let replies = held
        held.removeAll()
        for (stream, list) in replies {
            for reply in list { await send(reply, stream: stream) }
        }
    }

    /// Sends `message` on the newest carrier's Noise session.
    func push(_ message: Message, id: UInt32? = nil, flags: FrameFlags = []) async {
        guard let stream = streams.indices.last else { return }
        await send(Reply(message: message, id: id, flags: flags), stream: stream)
    }

    /// Sends bytes as they are on the newest carrier (garbage, another phone's message).
    func inject(_ bytes: [UInt8]) async {
        try? await streams.last?.carrier.send(bytes)
    }

    /// Seals `frame` as is on the newest carrier's Noise session (a frame no codec would write).
    func injectFrame(_ frame: [UInt8]) async {
        guard let stream = streams.indices.last, case .open(var session, let connection) = streams[stream].side,
            let sealed = try? session.seal(frame)
        else { return }
        streams[stream].side = .open(session, connection: connection)
        try? await streams[stream].carrier.send(sealed)
    }

    /// Lets the first `count` bytes of a message reach the phone on the newest carrier, and no more: a link that
    /// trickles.
    func trickle(_ count: Int) {
        streams.last?.carrier.trickle(count)
    }

    /// Says a relay word on the newest carrier.
    func signal(_ word: String) {
        if word == "gone", let stream = streams.indices.last { streams[stream].side = nil }
        streams.last?.carrier.signal(word)
    }

    /// Closes the newest carrier from the box's side, with a relay's code.
    func close(code: Int = 1006, reason: String = "") {
        streams.last?.carrier.close(code: code, reason: reason)
    }

    /// How many carriers the box has seen.
    var carrierCount: Int { streams.count }

    /// The box's uptime now.
    var uptimeMs: Int64 { uptime.nowMs }

    private func receive(_ event: CarrierEvent, stream: Int) async {
        guard case .binary(let bytes) = event else { return }
        switch streams[stream].side {
        case nil:
            await handshake(bytes, stream: stream)
        case .open(var session, let connection):
            guard let frame = try? session.open(bytes) else { return }
            streams[stream].side = .open(session, connection: connection)
            guard let (decoded, envelope, message) = try? FrameCodec.decode(frame) else { return }
            received.append(
                Received(
                    message: message,
                    id: envelope.id,
                    lane: decoded.lane,
                    frameBytes: decoded.bucket,
                    wireBytes: bytes.count,
                    atMs: clock.nowMs,
                    connection: connection
                )
            )
            await react(to: message, id: envelope.id, stream: stream)
        }
    }

    /// Answers the last message 1 the box kept silent on.
    func answerHandshake() async {
        guard let (message1, stream) = unanswered else { return }
        unanswered = nil
        answersHandshakes = true
        await handshake(message1, stream: stream)
    }

    private func handshake(_ bytes: [UInt8], stream: Int) async {
        guard answersHandshakes else {
            unanswered = (bytes, stream)
            return
        }
        guard
            var responder = try? NoiseHandshake.responder(
                staticPrivateKey: Self.staticPrivateKey,
                prologue: NoiseHandshake.productionPrologue(boxStaticPublicKey: Self.staticPublicKey)
            ),
            let (payload, _) = try? responder.readMessage1(bytes),
            let (reply, session) = try? responder.writeMessage2(payload: [])
        else { return }
        handshakeCount += 1
        handshakePayloads.append(payload)
        streams[stream].side = .open(session, connection: handshakeCount)
        try? await streams[stream].carrier.send(reply)
    }

    private func react(to message: Message, id: UInt32?, stream: Int) async {
        switch message {
        case .hello(let hello):
            guard answersHello else { return }
            let mode = helloModes.isEmpty ? "full" : helloModes.removeFirst()
            var answer = SampleHello.make(uptimeMs: uptime.nowMs)
            answer.proto = helloProto
            answer.mode = mode
            answer.subscribed = helloSubscribed && hello.sub != nil && mode != "booting"
            await send(Reply(message: .helloOK(answer), id: nil), stream: stream)
            if answer.subscribed { await send(Reply(message: .snap(snapshot()), id: nil), stream: stream) }
        case .sub:
            await send(Reply(message: .snap(snapshot()), id: nil), stream: stream)
        case _ where Self.requestTypes.contains(message.type):
            let replies = script(message, id)
            if holding {
                held.append((stream, replies))
            } else {
                for reply in replies { await send(reply, stream: stream) }
            }
        default:
            break
        }
    }

    private func send(_ reply: Reply, stream: Int) async {
        guard case .open(var session, let connection) = streams[stream].side else { return }
        let payload = reply.message.envelope(id: reply.id).encoded()
        let bucket = reply.message.lane == .control ? Frame.defaultControlBucket : nil
        guard
            let frame = try? Frame(lane: reply.message.lane, flags: reply.flags, payload: payload, bucket: bucket)
                .encoded(),
            let sealed = try? session.seal(frame)
        else { return }
        streams[stream].side = .open(session, connection: connection)
        try? await streams[stream].carrier.send(sealed)
    }

    private func snapshot() -> Snap {
        Snap(uptimeMs: uptime.nowMs, controlRev: 7, dict: [:], fields: [1: 1_500], sources: [:])
    }
}
