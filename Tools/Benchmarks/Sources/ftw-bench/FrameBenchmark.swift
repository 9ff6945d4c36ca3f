import FTWBoxProtocol
import FTWBus
import FTWCache
import FTWClient
import FTWClockSeamTesting
import FTWNoise
import FTWSeal
import FTWSealInterface
import FTWSealTestSupport
import FTWSession
import FTWSessionInterface
import FTWSessionTestSupport
import FTWSite
import Foundation

/// `ftw-bench frame`: what one 1 Hz live frame costs the client end to end, from its sealed bytes arriving on the
/// carrier to every model having taken it (the home screen and the battery view open, every model settled), against
/// its bare work measured in the same run: ChaCha20-Poly1305 open and the decode of the same frame, read as the
/// session reads it (`FrameCodec.decodeMessage`).
///
/// `ftw-bench frame client N` and `ftw-bench frame bare N` run one side for N frames, for
/// `Tools/Benchmarks/count-instructions.sh` (instructions and, with `--allocations`, heap allocations per frame);
/// `ftw-bench frame harness N` runs the client's bench without a client (the box, the carrier, the simulated
/// clock), so the client's own share is the difference.
/// The client runs on the simulated executor so every frame settles before the next is sent; its scheduling is in
/// the count. `ftw-bench frame --real ws|wss` measures the same on the real path (``RealFrameBenchmark``): that is
/// what a phone pays.
enum FrameBenchmark {
    /// A moment with no name turning for the frames sent: 10:00:30 UTC, 11:00:30 in the box's Stockholm.
    static let originMs: Int64 = 1_796_292_030_000
    static let appPrivateKey = [UInt8](repeating: 0x22, count: 32)

    static func run(arguments: [String]) async {
        let frames = arguments.dropFirst().first.flatMap(Int.init) ?? 10
        switch arguments.first {
        case "client":
            let sent = min(frames, FrameMix.sealedAhead)
            _ = await client(frames: sent)
            endCounted("client: \(sent) frames")
        case "harness":
            let sent = min(frames, FrameMix.sealedAhead)
            _ = await harness(frames: sent)
            endCounted("harness: \(sent) frames")
        case "bare":
            endCounted("bare checksum \(bare(frames: min(frames, FrameMix.sealedAhead)))")
        case "--real":
            await RealFrameBenchmark.run(arguments: Array(arguments.dropFirst()))
        case "floor-input" where arguments.count == 2:
            do {
                try RealFrameBenchmark.writeFloorInput(to: URL(fileURLWithPath: arguments[1]), frames: 60)
            } catch {
                print("frame floor-input: \(error)")
            }
        case "real-client" where arguments.count == 4:
            do {
                try await RealClient.live(data: arguments[1], site: arguments[2], seconds: Int(arguments[3]) ?? 60)
            } catch {
                print("frame real-client: \(error)")
            }
        default:
            await compare()
        }
    }

    /// Prints `line` and ends the process at once, before any thread tears down: callgrind's counts of N and N + 10
    /// frames then differ by the frames alone. Left to exit, a run ended either before or after the simulation's
    /// thread had freed its arena and run its destructors, some 65 k instructions either way, which
    /// `count-instructions.sh` divided into 6.5 k a frame of noise.
    private static func endCounted(_ line: String) -> Never {
        print(line)
        fflush(nil)
        _exit(0)
    }

    /// Times both sides over the same frames and prints the ratio (wall time, best of several rounds).
    private static func compare() async {
        let frames = FrameMix.sealedAhead - 1
        var client = Duration.seconds(3_600)
        var harness = Duration.seconds(3_600)
        var bare = Duration.seconds(3_600)
        for _ in 0..<5 {
            client = min(client, await self.client(frames: frames))
            harness = min(harness, await self.harness(frames: frames))
            let (app, sealed) = bareFrames()
            let measured = Array(sealed.prefix(frames))
            let clock = ContinuousClock()
            let start = clock.now
            for _ in 0..<100 { _ = openAndDecode(app, measured) }
            bare = min(bare, start.duration(to: clock.now) / 100)
        }
        let clientMicros = client / .microseconds(frames)
        let harnessMicros = harness / .microseconds(frames)
        let bareMicros = bare / .microseconds(frames)
        print("frame: one 1 Hz delta, end to end in the client (home screen and battery open), best of 5 rounds")
        print(String(format: "frame: client end to end        %8.1f µs", clientMicros))
        print(String(format: "frame: the bench alone          %8.1f µs  (box, carrier, clock)", harnessMicros))
        print(String(format: "frame: bare open + decode       %8.1f µs", bareMicros))
        print(String(format: "frame: ratio client / bare      %8.1f×", clientMicros / bareMicros))
        let ownRatio = (clientMicros - harnessMicros) / bareMicros
        print(String(format: "frame: ratio (client − bench) / bare %3.1f×", ownRatio))
        print("frame: instructions and allocations: Tools/Benchmarks/count-instructions.sh [--allocations] \\")
        print("           .build/release/ftw-bench frame client|harness|bare N  (the client's own: client − harness)")
    }

    /// Streams `frames` deltas to a client composed as the phone composes it; returns the time the frames took.
    static func client(frames: Int) async -> Duration {
        let simulation = Simulation(originMs: originMs)
        return await simulation.run { simulation in
            let dialer = InMemoryDialer()
            let box = FrameBox()
            let client = makeClient(dialer: dialer, simulation: simulation)
            return await withTaskGroup(of: Void.self) { group in
                group.addTask { await box.serve(dialer.accepted) }
                group.addTask { try? await client.run() }
                _ = await client.launch()
                // A client that is not closed takes every phase.
                try! await client.setPhase(.inactive)
                try! await client.setPhase(.active)
                client.show(.now)
                client.show(.battery)
                await simulation.advance(by: .seconds(1))
                let took = await send(await box.seal(FrameMix.deltas), count: frames, box: box, simulation: simulation)
                let shown = await client.snapshot.shown?.snapshot.fields[FieldID.grid]
                if frames > 0, case .delta(let last) = FrameMix.delta(frames - 1), shown != last.fields[FieldID.grid] {
                    preconditionFailure("the client did not take the frames: grid shows \(String(describing: shown))")
                }
                group.cancelAll()
                return took
            }
        }
    }

    /// The bench's own share of ``client(frames:)``, measured alone: the same box actor handing the same number of
    /// sealed frames to an in-memory carrier whose other end only drops them, and the simulated second after each.
    /// What a frame costs the client itself is the client's count less this one.
    static func harness(frames: Int) async -> Duration {
        let simulation = Simulation(originMs: originMs)
        return await simulation.run { simulation in
            let dialer = InMemoryDialer()
            let box = FrameBox()
            return await withTaskGroup(of: Void.self) { group in
                group.addTask { await box.serve(dialer.accepted) }
                guard let app = try? await dialer.dial() else { preconditionFailure("the in-memory dial failed") }
                group.addTask { for await _ in app.incoming {} }
                await simulation.advance(by: .seconds(1))
                let took = await send(bareFrames().sealed, count: frames, box: box, simulation: simulation)
                await app.close()
                group.cancelAll()
                return took
            }
        }
    }

    /// Sends the first `count` of `sealed`, a simulated second after each; returns the wall time they took.
    private static func send(_ sealed: [[UInt8]], count: Int, box: FrameBox, simulation: Simulation) async -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        for frame in sealed.prefix(count) {
            await box.send(frame)
            await simulation.advance(by: .seconds(1))
        }
        return start.duration(to: clock.now)
    }

    private static func makeClient(dialer: InMemoryDialer, simulation: Simulation) -> HeadlessClient {
        let boxKey = FrameBox.staticPublicKey
        let paired = PairedSite(
            site: SiteID.derived(fromBoxKey: boxKey),
            boxStaticPublicKey: boxKey,
            rendezvousSecret: [],
            lanHint: "",
            devicePrivateKey: appPrivateKey,
            pairingCode: [],
            role: "owner"
        )
        return HeadlessClient(
            paired: paired,
            store: InMemorySealedStore(keys: InMemoryKeyProvider(), events: EventBus()),
            dialer: dialer,
            clock: simulation.clock,
            wallClock: simulation.clock,
            random: SeededRandomSource(seed: 7),
            policy: .ageKeyed,
            log: DiscardingLogSink()
        )
    }

    /// Seals every delta a run may send and opens and decodes the first `frames`: the setup is the same whatever
    /// `frames` is, so counting with two values of `frames` leaves the work per frame.
    static func bare(frames: Int) -> Int {
        let (app, sealed) = bareFrames()
        return openAndDecode(app, Array(sealed.prefix(frames)))
    }

    /// The app's end of a session and the deltas its box sealed.
    static func bareFrames() -> (app: NoiseSession, sealed: [[UInt8]]) {
        guard case (var box, let app)? = try? sessionPair() else { preconditionFailure("the bench's handshake failed") }
        return (app, FrameMix.deltas.compactMap { try? box.seal(HostileRelay.frame($0, id: nil)) })
    }

    /// Opens and decodes `sealed` in order; returns a checksum so nothing is optimised away.
    @inline(never)
    static func openAndDecode(_ session: NoiseSession, _ sealed: [[UInt8]]) -> Int {
        var app = session
        var checksum = 0
        for bytes in sealed {
            guard let frame = try? app.open(bytes), let (_, _, message) = try? FrameCodec.decodeMessage(frame),
                case .delta(let delta) = message
            else { preconditionFailure("a bench frame did not open") }
            checksum &+= delta.fields.count
        }
        return checksum
    }

    /// Both ends of one session, with the keys the client side uses.
    private static func sessionPair() throws -> (box: NoiseSession, app: NoiseSession) {
        let prologue = NoiseHandshake.productionPrologue(boxStaticPublicKey: FrameBox.staticPublicKey)
        var app = try NoiseHandshake.initiator(
            staticPrivateKey: appPrivateKey,
            remoteStaticPublicKey: FrameBox.staticPublicKey,
            prologue: prologue
        )
        var box = try NoiseHandshake.responder(staticPrivateKey: FrameBox.staticPrivateKey, prologue: prologue)
        let message1 = try app.writeMessage1(payload: [])
        _ = try box.readMessage1(message1)
        let (message2, boxSession) = try box.writeMessage2(payload: [])
        let (_, appSession) = try app.readMessage2(message2)
        return (boxSession, appSession)
    }
}
