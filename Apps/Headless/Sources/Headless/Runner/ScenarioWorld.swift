import Bus
import Cache
import ClockSeam
import Crypto
import DemoBox
import Foundation
import Seal
import SealInterface
import Session
import SessionInterface

/// The simulated world a scenario plays in: the demo box, the phone's sealed folder, and at most one running app.
///
/// It owns the bookkeeping a person reads afterwards (stays, what was drawn at launch, when the stream came back)
/// and nothing else: every rule about asking lives in the modules the client composes.
actor ScenarioWorld {
    private let simulation: Simulation
    private let box: SimulatedBox
    private let folder: URL
    private let policy: AskPolicy
    private let midnightMs: Int64
    private let store: FileSealedStore
    private let sealEvents = EventBus<SealEvent>()
    private let observer: (any ScenarioObserver)?
    private var stays = StayBook()
    private var asks: [AskRecord] = []
    private var heldAtEnd: DrawnFromFiles?

    init(
        simulation: Simulation,
        box: SimulatedBox,
        folder: URL,
        policy: AskPolicy,
        midnightMs: Int64,
        observer: (any ScenarioObserver)? = nil
    ) {
        self.simulation = simulation
        self.observer = observer
        self.box = box
        self.folder = folder
        self.policy = policy
        self.midnightMs = midnightMs
        store = FileSealedStore(
            folder: folder.appendingPathComponent("sealed"),
            keys: FileKeyProvider(dataFolder: folder),
            events: sealEvents
        )
    }

    /// Plays every line, then reports.
    func play(_ lines: [Scenario.Line]) async throws -> (report: ScenarioReport, picture: SVGChart?) {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [box] in try await box.run() }
            if let observer {
                await observer.began(clock: simulation.clock)
                group.addTask { [sealEvents] in await observer.follow(store: sealEvents.subscribe()) }
            }
            await simulation.settle()
            var cursor = 0
            var picture: SVGChart?
            while cursor < lines.count {
                await observer?.step(lines[cursor].step, atMs: simulation.clock.nowMs, client: nil)
                if case .launch = lines[cursor].step {
                    (cursor, picture) = try await runProcess(lines, from: cursor + 1)
                } else {
                    try await applyWithoutApp(lines[cursor])
                    cursor += 1
                }
            }
            group.cancelAll()
            return (await report(), picture)
        }
    }

    /// One process lifetime: from a launch to its kill (or the end of the scenario).
    private func runProcess(_ lines: [Scenario.Line], from start: Int) async throws -> (Int, SVGChart?) {
        let client = try await makeClient()
        let drawn = await client.launch()
        stays.launched(atMs: simulation.clock.nowMs, drawn: drawn)
        var picture: SVGChart?
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.run() }
            group.addTask { await self.watchStream(client.sessionEvents.subscribe()) }
            if let observer { group.addTask { await observer.follow(client: client) } }
            await simulation.settle()
            var cursor = start
            while cursor < lines.count, lines[cursor].step != .kill {
                await observer?.step(lines[cursor].step, atMs: simulation.clock.nowMs, client: client)
                try await apply(lines[cursor], to: client)
                cursor += 1
            }
            if cursor < lines.count {
                await observer?.step(lines[cursor].step, atMs: simulation.clock.nowMs, client: client)
            }
            if cursor == lines.count {
                picture = await PictureTaker.battery(of: client, nowMs: simulation.clock.nowMs)
                heldAtEnd = await DrawnFromFiles.read(from: client)
            }
            stays.ended(atMs: simulation.clock.nowMs)
            asks += await client.session.asks
            await observer?.ended(client, atMs: simulation.clock.nowMs)
            group.cancelAll()
            await simulation.settle()
            return (cursor + 1, picture)
        }
    }

    private func apply(_ line: Scenario.Line, to client: HeadlessClient) async throws {
        switch line.step {
        case .phase(let phase):
            if phase == .background {
                stays.ended(atMs: simulation.clock.nowMs)
            } else {
                stays.inFront(atMs: simulation.clock.nowMs)
            }
            await client.setPhase(phase)
            await simulation.settle()
        case .show(let view): client.show(view)
        case .hide(let view): client.hide(view)
        case .refresh(let view): client.refresh(view)
        case .launch: throw ScenarioError(line: line.number, "'launch' while the app is running; 'kill' it first")
        default: try await applyWithoutApp(line)
        }
        await simulation.settle()
    }

    private func applyWithoutApp(_ line: Scenario.Line) async throws {
        switch line.step {
        case .wait(let duration):
            await simulation.advance(by: duration)
        case .at(let timeOfDayMs):
            let target = midnightMs + timeOfDayMs
            let now = simulation.clock.nowMs
            guard target >= now else {
                throw ScenarioError(line: line.number, "'at' is \((now - target) / 1000) s in the past")
            }
            await simulation.advance(by: .milliseconds(target - now))
        case .box(let knob):
            await turn(knob)
            await simulation.settle()
        case .kill:
            break
        default:
            throw ScenarioError(line: line.number, "the app is not running; 'launch' it first")
        }
    }

    private func turn(_ knob: BoxKnob) async {
        switch knob {
        case .pricesLate(let late): await box.setPricesLate(late)
        case .publishAt(let minutes): await box.setPricePublish(minutesIntoDay: minutes)
        case .deviceQuiet(let source, let quiet): await box.setDeviceQuiet(source, quiet)
        case .cutCarriers:
            stays.carrierCut()
            await box.cutCarriers()
        case .relayLatency(let latency): await box.setRelayLatency(latency)
        case .reboot:
            // A reboot closes every session: frames on their way are lost as in a cut.
            stays.carrierCut()
            await box.reboot()
        }
    }

    /// Builds the app for the demo box's site, pairing it on the first launch with a code from the box, as a
    /// person scanning its QR code would.
    private func makeClient() async throws -> HeadlessClient {
        let site = SiteID.derived(fromBoxKey: box.boxStaticPublicKey)
        var paired = await PairedSite.read(site: site, from: store)
        if paired == nil {
            let record = PairedSite(
                site: site,
                boxStaticPublicKey: box.boxStaticPublicKey,
                rendezvousSecret: await box.rendezvousSecret,
                lanHint: "",
                devicePrivateKey: X25519.generatePrivateKey(),
                pairingCode: await box.mintPairingCode()
            )
            try await record.write(to: store)
            paired = record
        }
        guard let paired else { throw ScenarioError(line: 1, "the pairing record could not be kept") }
        return HeadlessClient(
            paired: paired,
            store: store,
            dialer: box.inProcessDialer(),
            clock: simulation.clock,
            wallClock: simulation.clock,
            random: SeededRandomSource(seed: 7),
            policy: policy,
            log: DiscardingLogSink()
        )
    }

    private func watchStream(_ events: AsyncStream<SessionEvent>) async {
        for await event in events {
            if case .streamReturned = event { stays.streamReturned(atMs: simulation.clock.nowMs) }
        }
    }

    private func report() async -> ScenarioReport {
        let received = await box.receivedRequests
        await observer?.finished(received: received)
        let stays = stays.reports(received: received, asks: asks)
        let mismatches = stays.compactMap { stay in stay.mismatch.map { "stay \(stay.number): \($0)" } }
        return ScenarioReport(
            name: "",
            policy: policy.scenarioName,
            stays: stays,
            errors: mismatches,
            heldAtEnd: heldAtEnd,
            simulatedMs: 0,
            realMs: 0
        )
    }
}
