import FTWBoxProtocol
import FTWCrypto
import FTWNoise
import FTWSessionInterface
import FTWSessionTestSupport

/// The box's side of `ftw-bench frame`: it says `ready`, answers the handshake and `hello` (`hello_ok`, then a
/// `snap` with the home's power fields), refuses every read with `E_UNKNOWN_OP` so the models settle at once, and
/// sends live frames it sealed beforehand, so a measured frame costs the box nothing but handing bytes over.
actor FrameBox {
    static let staticPrivateKey = [UInt8](repeating: 0x11, count: 32)
    static let staticPublicKey = (try? X25519.publicKey(privateKey: staticPrivateKey)) ?? []

    private var carrier: InMemoryCarrier?
    private var session: NoiseSession?

    /// Serves the first carrier the dialer opens until it closes.
    func serve(_ accepted: AsyncStream<InMemoryCarrier>) async {
        for await carrier in accepted {
            self.carrier = carrier
            carrier.signal("ready")
            for await event in carrier.incoming {
                guard case .binary(let bytes) = event else { continue }
                await receive(bytes)
            }
            return
        }
    }

    /// Seals `messages` in order on the session's sending side, ready to be sent one by one.
    func seal(_ messages: [Message], id: UInt32? = nil) -> [[UInt8]] {
        messages.compactMap { message in
            guard var session, let sealed = try? session.seal(HostileRelay.frame(message, id: id)) else { return nil }
            self.session = session
            return sealed
        }
    }

    /// Hands one sealed frame to the app.
    func send(_ sealed: [UInt8]) async {
        try? await carrier?.send(sealed)
    }

    private func receive(_ bytes: [UInt8]) async {
        guard var session else { return await handshake(bytes) }
        guard let frame = try? session.open(bytes), let (_, envelope, message) = try? FrameCodec.decode(frame) else {
            return
        }
        self.session = session
        let replies: [Message]
        switch message {
        case .hello: replies = [.helloOK(SampleHello.make()), .snap(FrameMix.snap)]
        case .planGet, .priceGet, .histQuery, .apiReq, .cmd:
            replies = [.error(ErrorBody(code: .unknownOp, retryable: false))]
        default: replies = []
        }
        let id = message.type == Hello.wireType ? nil : envelope.id
        for sealed in seal(replies, id: id) { await send(sealed) }
    }

    private func handshake(_ message1: [UInt8]) async {
        guard
            var responder = try? NoiseHandshake.responder(
                staticPrivateKey: Self.staticPrivateKey,
                prologue: NoiseHandshake.productionPrologue(boxStaticPublicKey: Self.staticPublicKey)
            ),
            (try? responder.readMessage1(message1)) != nil,
            let (message2, session) = try? responder.writeMessage2(payload: [])
        else { return }
        self.session = session
        await send(message2)
    }
}
