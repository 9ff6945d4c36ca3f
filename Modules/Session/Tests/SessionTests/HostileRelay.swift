import BoxProtocol
import Noise
import SessionTestSupport
import WebSocket

/// A relay and box in one, on a real socket on 127.0.0.1, that floods: it says `ready`, answers the Noise
/// handshake and `hello` like a box, and answers each request frame with whatever `replies` makes of it, sent as
/// fast as the socket takes them. Each connection is served in order on one task, so a flood finishes before the
/// next request is read.
final class HostileRelay: Sendable {
    /// How the box answers a request frame: every message is sent with the request's id.
    typealias Replies = @Sendable (Message) -> [Message]

    private let server: WebSocketServer
    private let replies: Replies

    /// The bound port.
    var port: Int { server.port }

    init(replies: @escaping Replies) throws {
        server = try WebSocketServer(
            port: 0,
            limits: WebSocketLimits(maxMessageSize: 1 << 20, maxFrameSize: 1 << 20),
            clock: ContinuousClock()
        )
        self.replies = replies
    }

    /// Serves until ``close()``.
    func run() async throws {
        try await server.run { request in
            guard let connection = try? request.accept() else { return }
            await Self.serve(connection, replies: self.replies)
        }
    }

    func close() async {
        await server.close()
    }

    private static func serve(_ connection: WebSocketConnection, replies: Replies) async {
        guard (try? await connection.send(.text("ready"))) != nil,
            case .binary(let message1)? = try? await connection.receive(),
            var responder = try? NoiseHandshake.responder(
                staticPrivateKey: ScriptedBox.staticPrivateKey,
                prologue: NoiseHandshake.productionPrologue(boxStaticPublicKey: ScriptedBox.staticPublicKey)
            ),
            (try? responder.readMessage1(message1)) != nil,
            let (message2, opened) = try? responder.writeMessage2(payload: []),
            (try? await connection.send(.binary(message2))) != nil
        else { return connection.abort() }
        var session = opened
        while case .binary(let bytes)? = try? await connection.receive() {
            guard let frame = try? session.open(bytes), let (_, envelope, message) = try? FrameCodec.decode(frame)
            else { continue }
            let answers: [Message] =
                switch message {
                case .hello:
                    [
                        .helloOK(SampleHello.make()),
                        .snap(Snap(uptimeMs: 1_000, controlRev: 1, dict: [:], fields: [:], sources: [:])),
                    ]
                default:
                    replies(message)
                }
            for answer in answers {
                let id: UInt32? =
                    if case .helloOK = answer { nil } else if case .snap = answer { nil } else { envelope.id }
                guard let sealed = try? session.seal(Self.frame(answer, id: id)),
                    (try? await connection.send(.binary(sealed))) != nil
                else { return }
            }
        }
    }

    private static func frame(_ message: Message, id: UInt32?) throws -> [UInt8] {
        let bucket = message.lane == .control ? Frame.defaultControlBucket : nil
        return try Frame(lane: message.lane, flags: [], payload: message.envelope(id: id).encoded(), bucket: bucket)
            .encoded()
    }
}
