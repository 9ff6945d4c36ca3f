public import FTWBoxProtocol
import FTWCrypto
import FTWNoise
import FTWWebSocket
import Synchronization

/// A relay and box in one, on a real socket on 127.0.0.1, that floods: it says `ready`, answers the Noise
/// handshake and `hello` like a box, and answers each request frame with whatever `replies` makes of it, sent as
/// fast as the socket takes them; with `pings`, it also sends that many pings at once after `hello_ok`, without
/// waiting for their pongs. Each connection is served in order on one task, so a flood finishes before the next
/// request is read. For loopback tests and `ftw-bench flood`: a hostile peer of the session.
///
/// It can misbehave before the box's side answers, too: close the first joins with 4429 `slow down` (a relay whose
/// join allowance for the phone's address is spent), or send junk after `ready` instead of answering the handshake.
/// And its box can come late: a room the phone joins before `boxArrives` returns hears `ready` only then, as a phone
/// in the new hour's room hears it when the relay has moved its box there.
///
/// ## Concurrency
/// A `Sendable` class: the server runs each connection as a child task of ``run()``; the count of connections
/// served sits behind a `Mutex`.
public final class HostileRelay: Sendable {
    /// How the box answers a request frame: every message is sent with the request's id.
    public typealias Replies = @Sendable (Message) -> [Message]

    private let server: WebSocketServer
    private let staticPrivateKey: [UInt8]
    private let staticPublicKey: [UInt8]
    private let replies: Replies
    private let pings: Int
    private let junk: [[UInt8]]
    private let served = Mutex(0)
    private let joined = Mutex(0)
    private let joinsToRefuse: Mutex<Int>
    private let boxArrives: @Sendable () async -> Void

    /// The bound port.
    public var port: Int { server.port }

    /// How many connections finished the handshake.
    public var connections: Int { served.withLock { $0 } }

    /// How many joins the relay took (refused ones included).
    public var joins: Int { joined.withLock { $0 } }

    /// Binds an ephemeral port on 127.0.0.1.
    ///
    /// - Parameters:
    ///   - staticPrivateKey: The box's static key, which the session's identity names.
    ///   - pings: How many pings to flood each connection with after `hello_ok`; 0 for none.
    ///   - refusedJoins: How many joins to close at once with 4429 `slow down` before letting one in.
    ///   - junk: Binary messages to send after `ready` instead of answering the handshake; empty to answer it.
    ///   - boxArrives: Returns once the box is in the room; each join waits for it before it hears `ready`.
    ///   - clock: The clock the WebSocket handshake and closing timeouts run on.
    ///   - replies: The answers to each request frame.
    public init(
        staticPrivateKey: [UInt8],
        pings: Int = 0,
        refusedJoins: Int = 0,
        junk: [[UInt8]] = [],
        boxArrives: @escaping @Sendable () async -> Void = {},
        clock: any Clock<Duration>,
        replies: @escaping Replies
    ) throws {
        server = try WebSocketServer(
            port: 0,
            limits: WebSocketLimits(maxMessageSize: 1 << 20, maxFrameSize: 1 << 20),
            clock: clock
        )
        self.staticPrivateKey = staticPrivateKey
        staticPublicKey = (try? X25519.publicKey(privateKey: staticPrivateKey)) ?? []
        self.pings = pings
        self.junk = junk
        joinsToRefuse = Mutex(refusedJoins)
        self.boxArrives = boxArrives
        self.replies = replies
    }

    /// Serves until ``close()``.
    public func run() async throws {
        try await server.run { request in
            guard let connection = try? request.accept() else { return }
            await self.serve(connection)
        }
    }

    /// Stops listening and closes every connection.
    public func close() async {
        await server.close()
    }

    private func serve(_ connection: WebSocketConnection) async {
        joined.withLock { $0 += 1 }
        let refused = joinsToRefuse.withLock { left in
            defer { left = max(0, left - 1) }
            return left > 0
        }
        if refused { return await connection.close(code: 4429, reason: "slow down") }
        guard junk.isEmpty else { return await sendJunk(on: connection) }
        await boxArrives()
        guard var session = await handshake(connection) else { return connection.abort() }
        served.withLock { $0 += 1 }
        while case .binary(let bytes)? = try? await connection.receive() {
            guard let frame = try? session.open(bytes), let (_, envelope, message) = try? FrameCodec.decode(frame)
            else { continue }
            var answers: [(Message, UInt32?)]
            if case .hello = message {
                let snap = Snap(uptimeMs: 1_000, controlRev: 1, dict: [:], fields: [:], sources: [:])
                answers = [(.helloOK(SampleHello.make()), nil), (.snap(snap), nil)]
            } else {
                answers = replies(message).map { ($0, envelope.id) }
            }
            for (answer, id) in answers {
                guard let sealed = try? session.seal(Self.frame(answer, id: id)),
                    (try? await connection.send(.binary(sealed))) != nil
                else { return }
            }
            if case .hello = message, pings > 0 {
                await withDiscardingTaskGroup { group in
                    for _ in 0..<pings { group.addTask { try? await connection.ping() } }
                }
            }
        }
    }

    /// `ready`, then the junk, then nothing until the phone leaves.
    private func sendJunk(on connection: WebSocketConnection) async {
        guard (try? await connection.send(.text("ready"))) != nil else { return }
        for message in junk { _ = try? await connection.send(.binary(message)) }
        while (try? await connection.receive()) != nil {}
    }

    /// `ready`, then the responder's side of Noise IK; nil when the phone's message 1 does not open.
    private func handshake(_ connection: WebSocketConnection) async -> NoiseSession? {
        guard (try? await connection.send(.text("ready"))) != nil,
            case .binary(let message1)? = try? await connection.receive(),
            var responder = try? NoiseHandshake.responder(
                staticPrivateKey: staticPrivateKey,
                prologue: NoiseHandshake.productionPrologue(boxStaticPublicKey: staticPublicKey)
            ),
            (try? responder.readMessage1(message1)) != nil,
            let (message2, session) = try? responder.writeMessage2(payload: []),
            (try? await connection.send(.binary(message2))) != nil
        else { return nil }
        return session
    }

    /// `message` in its frame as a box sends it, before sealing: lane 0 in the default bucket, lane 1 in the
    /// smallest that holds it. Shared with the other boxes the tests and benchmarks play.
    public static func frame(_ message: Message, id: UInt32?) throws(ProtocolError) -> [UInt8] {
        try Frame(lane: message.lane, payload: message.envelope(id: id).encoded()).encoded()
    }
}
