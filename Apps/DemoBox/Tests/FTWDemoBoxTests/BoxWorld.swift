import FTWBoxProtocol
import FTWClockSeam
import FTWClockSeamTesting
import FTWDemoBox
import FTWNoise
import FTWSessionInterface
import Synchronization

/// A simulated world around one demo box: a `Simulation` (its clock is both the box's clock and its wall clock),
/// the box's service running, and test phones pumping their carriers, all on one deterministic thread.
struct BoxWorld: Sendable {
    /// 2026-12-02 10:01:00 UTC, a Wednesday: 11:01 in Stockholm, before the 13:00 price publication.
    static let origin: Int64 = 1_796_205_660_000

    let simulation: Simulation
    let box: SimulatedBox
    private let pumps: AsyncStream<TestPhone>.Continuation

    /// Runs `body` in a world whose box has `configuration`.
    @discardableResult
    static func run<T: Sendable>(
        originMs: Int64 = origin,
        configuration: DemoBoxConfiguration = DemoBoxConfiguration(),
        _ body: @escaping @Sendable (BoxWorld) async throws -> T
    ) async throws -> T {
        let simulation = Simulation(originMs: originMs)
        return try await simulation.run { simulation in
            let box = SimulatedBox(configuration: configuration, clock: simulation.clock, wallClock: simulation.clock)
            let (phones, pumps) = AsyncStream.makeStream(of: TestPhone.self)
            return try await withThrowingTaskGroup(of: Void.self, returning: T.self) { group in
                group.addTask { try await box.run() }
                group.addTask {
                    await withDiscardingTaskGroup { pumping in
                        for await phone in phones { pumping.addTask { await phone.pump() } }
                    }
                }
                await simulation.settle()
                defer { group.cancelAll() }
                return try await body(BoxWorld(simulation: simulation, box: box, pumps: pumps))
            }
        }
    }

    /// A phone in the room (dialled in-process, pumping), not yet in a session.
    func phone(staticKey: [UInt8]? = nil) async throws -> TestPhone {
        let carrier = try await box.inProcessDialer().dial()
        let phone =
            if let staticKey {
                try TestPhone(carrier: carrier, boxKey: box.boxStaticPublicKey, staticKey: staticKey)
            } else {
                try TestPhone(carrier: carrier, boxKey: box.boxStaticPublicKey)
            }
        pumps.yield(phone)
        await simulation.settle()
        return phone
    }

    /// Moves time on until `phone` hears `ready`, before it says its first handshake message: a phone that joins
    /// while the relay has moved the box's uplink out at the hour's turn waits the box's 2.5 s rejoin, as it waits in
    /// the real relay's room. The turn falls where the box's random rendezvous secret sets it, so without this wait a
    /// test that joins a minute past an hour met the box away about one run in twenty. Bounded: 5 s of simulated time.
    private func untilTheBoxIsIn(_ phone: TestPhone) async {
        var steps = 0
        while await !phone.events.contains(.control("ready")), steps < 50 {
            await simulation.advance(by: .milliseconds(100))
            steps += 1
        }
    }

    /// A phone that joined the room as a phone joins the relay, at `/r/<epoch>/<handle>/app` for `epoch` (the wall
    /// clock's by default), every close it is handed told to `closes`.
    func relayPhone(epoch: Int64? = nil, closes: CloseLog = CloseLog()) async throws -> TestPhone {
        let secret = await box.rendezvousSecret
        let epoch = epoch ?? Rendezvous.epoch(nowMs: nowMs)
        let dialer = box.relayDialer(
            path: { "/r/\(epoch)/\(Rendezvous.handle(secret: secret, epoch: epoch))/app" },
            noteClose: { code, reason in closes.note(code, reason) }
        )
        let phone = try TestPhone(carrier: try await dialer.dial(), boxKey: box.boxStaticPublicKey)
        pumps.yield(phone)
        await simulation.settle()
        return phone
    }

    /// A phone enrolled with a fresh code of `role`, in a session, its handshake begun once the box was in the room.
    func enrolledPhone(role: String = "owner") async throws -> TestPhone {
        let code = await box.mintPairingCode(role: role)
        let phone = try await phone()
        await untilTheBoxIsIn(phone)
        try await phone.startHandshake(payload: code)
        await simulation.settle()
        return phone
    }

    /// An enrolled phone that said hello with a subscription, and the snap it got (nil when none came).
    func helloedPhone() async throws -> (phone: TestPhone, snap: Snap?) {
        let phone = try await enrolledPhone()
        try await phone.send(Samples.hello())
        await simulation.settle()
        guard case .snap(let snap)? = await phone.received.last?.message else { return (phone, nil) }
        return (phone, snap)
    }

    /// An enrolled phone that said hello with a subscription, its hello_ok and snap received and then forgotten.
    func streamingPhone(role: String = "owner", sub: Sub = Sub()) async throws -> TestPhone {
        let phone = try await enrolledPhone(role: role)
        try await phone.send(.hello(Hello(app: AppInfo(build: "test"), locales: ["en"], sub: sub)))
        await simulation.settle()
        await phone.clear()
        return phone
    }

    /// Moves time on by `duration`.
    func advance(by duration: Duration) async {
        await simulation.advance(by: duration)
    }

    func settle() async {
        await simulation.settle()
    }

    var nowMs: Int64 { simulation.clock.nowMs }
}

/// The closes a relay dialer reported, as a rendezvous hears them.
final class CloseLog: Sendable {
    private let closes = Mutex<[CarrierEvent]>([])

    func note(_ code: Int, _ reason: String) {
        closes.withLock { $0.append(.closed(code: code, reason: reason)) }
    }

    var all: [CarrierEvent] { closes.withLock { $0 } }
}
