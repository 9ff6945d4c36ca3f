import FTWBoxProtocol
import FTWCrypto
import FTWNoise
import FTWSessionInterface

/// A tiny phone for the box's tests: a Noise initiator and the frame codec over any carrier. It keeps every frame
/// it could decrypt (other phones' frames in the room fail to open and are ignored), every control word and close,
/// and the size of every binary message it saw.
actor TestPhone {
    /// One frame this phone decrypted.
    struct Received: Sendable {
        var frame: Frame
        var envelope: Envelope
        var message: Message?

        var type: String { envelope.type }
    }

    let staticKey: [UInt8]
    let publicKey: [UInt8]
    private let boxKey: [UInt8]
    let carrier: any Carrier
    private var handshake: NoiseHandshake?
    private var session: NoiseSession?
    private var nextID: UInt32 = 1
    private(set) var received: [Received] = []
    private(set) var events: [CarrierEvent] = []
    /// Sizes of the binary messages that opened under this phone's session, in arrival order.
    private(set) var wireSizes: [Int] = []
    /// Every binary message that reached this phone, its own or not.
    private(set) var binaryCount = 0
    private var waiters: [(id: Int, check: Check, continuation: CheckedContinuation<Void, Never>)] = []
    private var nextWaiter = 0

    /// What a wait waits for, judged on what arrived so far.
    typealias Condition = @Sendable (_ received: [Received], _ events: [CarrierEvent]) -> Bool
    /// A condition that may also ask whether the handshake finished.
    private typealias Check = @Sendable (_ received: [Received], _ events: [CarrierEvent], _ connected: Bool) -> Bool

    init(carrier: any Carrier, boxKey: [UInt8], staticKey: [UInt8] = X25519.generatePrivateKey()) throws {
        self.carrier = carrier
        self.boxKey = boxKey
        self.staticKey = staticKey
        publicKey = try X25519.publicKey(privateKey: staticKey)
    }

    /// Reads the carrier until it ends or the task is cancelled.
    func pump() async {
        for await event in carrier.incoming { take(event) }
    }

    var isConnected: Bool { session != nil }

    /// Sends message 1 with `payload` (a pairing code, or empty for a known phone).
    func startHandshake(payload: [UInt8]) async throws {
        var initiator = try NoiseHandshake.initiator(
            staticPrivateKey: staticKey,
            remoteStaticPublicKey: boxKey,
            prologue: NoiseHandshake.productionPrologue(boxStaticPublicKey: boxKey)
        )
        let message = try initiator.writeMessage1(payload: payload)
        handshake = initiator
        session = nil
        try await carrier.send(message)
    }

    /// Sends `message` in a frame of its lane; returns the id it carries.
    @discardableResult
    func send(_ message: Message, id: UInt32? = nil) async throws -> UInt32? {
        try await sendFrame(FrameCodec.encode(message, id: id))
        return id
    }

    /// Sends `message` with the next request id, which it returns.
    func ask(_ message: Message) async throws -> UInt32 {
        let id = nextID
        nextID += 1
        try await send(message, id: id)
        return id
    }

    /// Sends an envelope as given (odd bodies included) on `lane`.
    func send(envelope: Envelope, lane: Lane = .bulk) async throws {
        try await sendFrame(Frame(lane: lane, payload: envelope.encoded()).encoded())
    }

    /// Seals and sends frame bytes.
    func sendFrame(_ frame: [UInt8]) async throws {
        guard var session else { throw TestPhoneError.notConnected }
        let wire = try session.seal(frame)
        self.session = session
        try await carrier.send(wire)
    }

    /// Sends raw bytes on the carrier, unsealed.
    func sendRaw(_ bytes: [UInt8]) async throws {
        try await carrier.send(bytes)
    }

    /// The decoded messages with `id`.
    func answers(to id: UInt32) -> [Received] {
        received.filter { $0.envelope.id == id }
    }

    /// Forgets what arrived so far.
    func clear() {
        received.removeAll()
        events.removeAll()
        wireSizes.removeAll()
        binaryCount = 0
    }

    /// Returns once `condition` holds for what arrived (at once if it already does), or when the task is cancelled:
    /// for loopback tests, which race it against a deadline.
    func wait(until condition: @escaping Condition) async {
        await park { received, events, _ in condition(received, events) }
    }

    /// Returns once the box's message 2 opened a session (at once if it has), or when the task is cancelled.
    func waitUntilConnected() async {
        await park { _, _, connected in connected }
    }

    private func park(_ check: @escaping Check) async {
        if check(received, events, isConnected) { return }
        let id = nextWaiter
        nextWaiter += 1
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiters.append((id, check, continuation))
            }
        } onCancel: {
            Task { await self.release(id) }
        }
    }

    private func release(_ id: Int) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume()
    }

    private func take(_ event: CarrierEvent) {
        defer { wakeWaiters() }
        guard case .binary(let bytes) = event else { return events.append(event) }
        binaryCount += 1
        if var session {
            guard let frame = try? session.open(bytes) else { return }
            self.session = session
            wireSizes.append(bytes.count)
            record(frame)
        } else if var handshake, let reply = try? handshake.readMessage2(bytes) {
            session = reply.session
            self.handshake = nil
        }
    }

    private func wakeWaiters() {
        let ready = waiters.filter { $0.check(received, events, isConnected) }
        waiters.removeAll { waiter in ready.contains { $0.id == waiter.id } }
        for waiter in ready { waiter.continuation.resume() }
    }

    private func record(_ bytes: [UInt8]) {
        guard let frame = try? Frame.decode(bytes), let envelope = try? Envelope.decode(frame.payload) else { return }
        received.append(Received(frame: frame, envelope: envelope, message: try? Message(envelope: envelope)))
    }
}

/// What the test phone refuses to do.
enum TestPhoneError: Error {
    case notConnected
}
