import FTWBoxProtocol
import FTWBus
import FTWCache
import FTWClient
import FTWSeal
import FTWSealInterface
import FTWSession
import FTWSessionInterface
import Foundation

/// The world a scenario plays in: its stage (the box and the clock), the phone's sealed folder, and at most one
/// running app.
///
/// It owns the bookkeeping a person reads afterwards (stays, what was drawn at launch, when the stream came back)
/// and nothing else: every rule about asking lives in the modules the client composes.
actor ScenarioWorld {
    private let stage: any ScenarioStage
    private let policy: AskPolicy
    /// Where an `at` lands (Unix ms) for a time of day: the clock face on the scenario's day, or on the wall clock
    /// an offset from the first `at`.
    private let instantOfTimeOfDay: @Sendable (Int64) -> Int64
    private let store: FileSealedStore
    private var stays = StayBook()
    private var asks: [AskRecord] = []
    private var heldAtEnd: DrawnFromFiles?
    private var notes: [String] = []
    /// What the sealed store had to say that a person must know: files dropped, unreadable or unwritten.
    private var sealedFiles: [String] = []
    private let sealEvents = EventBus<SealEvent>()
    private let observer: (any ScenarioObserver)?

    init(
        stage: any ScenarioStage,
        folder: URL,
        policy: AskPolicy,
        instantOfTimeOfDay: @escaping @Sendable (Int64) -> Int64,
        observer: (any ScenarioObserver)? = nil,
        lock: FolderLock? = nil
    ) {
        self.stage = stage
        self.observer = observer
        self.policy = policy
        self.instantOfTimeOfDay = instantOfTimeOfDay
        store = DataFolder(url: folder).store(events: sealEvents, lock: lock)
    }

    /// Plays every line, then reports.
    func play(_ lines: [Scenario.Line]) async throws -> (report: ScenarioReport, picture: SVGChart?) {
        let sealed = sealEvents.subscribe()
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [stage] in try await stage.run() }
            group.addTask { for await event in sealed { await self.noteSealed(event) } }
            if let observer {
                await observer.began(clock: stage.wallClock)
                group.addTask { [sealEvents] in await observer.follow(store: sealEvents.subscribe()) }
            }
            await stage.settle()
            var cursor = 0
            var picture: SVGChart?
            while cursor < lines.count {
                await observer?.step(lines[cursor].step, atMs: stage.nowMs, client: nil)
                if case .launch = lines[cursor].step {
                    (cursor, picture) = try await runProcess(lines, from: cursor + 1)
                } else {
                    try await applyWithoutApp(lines[cursor])
                    cursor += 1
                }
            }
            await stage.settle()
            group.cancelAll()
            return (await report(), picture)
        }
    }

    /// One process lifetime: from a launch to its kill (or the end of the scenario).
    private func runProcess(_ lines: [Scenario.Line], from start: Int) async throws -> (Int, SVGChart?) {
        let client = try await stage.makeClient(store: store, policy: policy)
        let drawn = await client.launch()
        stays.launched(atMs: stage.nowMs, drawn: drawn)
        var picture: SVGChart?
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.run() }
            group.addTask { await self.watchStream(client.sessionEvents.subscribe()) }
            group.addTask { await ReadWatch(client: client).follow { await self.readFailed($0) } }
            if let observer { group.addTask { await observer.follow(client: client) } }
            await stage.settle()
            var cursor = start
            while cursor < lines.count, lines[cursor].step != .kill {
                await observer?.step(lines[cursor].step, atMs: stage.nowMs, client: client)
                if case .command(let command) = lines[cursor].step {
                    let given = stays.commandGiven(
                        CommandReport(atMs: stage.nowMs, command: "\(command)", op: command.request.op)
                    )
                    group.addTask { await self.give(command, to: client, keptAt: given) }
                }
                try await apply(lines[cursor], to: client)
                cursor += 1
            }
            if cursor < lines.count {
                await observer?.step(lines[cursor].step, atMs: stage.nowMs, client: client)
            }
            if cursor == lines.count {
                picture = await PictureTaker.battery(of: client, nowMs: stage.nowMs)
                heldAtEnd = await DrawnFromFiles.read(from: client)
            }
            await look(at: client, atEnd: true)
            stays.processEnded(atMs: stage.nowMs, killed: cursor < lines.count)
            asks += await client.session.asks
            await observer?.ended(client, atMs: stage.nowMs)
            group.cancelAll()
            await stage.settle()
            return (cursor + 1, picture)
        }
    }

    private func apply(_ line: Scenario.Line, to client: HeadlessClient) async throws {
        switch line.step {
        case .phase(let phase):
            if phase == .background {
                await look(at: client, atEnd: true)
                stays.ended(atMs: stage.nowMs)
            } else {
                stays.inFront(atMs: stage.nowMs)
            }
            try await client.setPhase(phase)
            await stage.settle()
        case .show(let view): client.show(view)
        case .hide(let view): client.hide(view)
        case .refresh(let view): client.refresh(view)
        case .command: break
        case .networkChange:
            stays.networkChanged(atMs: stage.nowMs)
            await client.networkChanged()
        case .look: await look(at: client, atEnd: false)
        case .launch: throw ScenarioError(line: line.number, "'launch' while the app is running; 'kill' it first")
        default: try await applyWithoutApp(line)
        }
        await stage.settle()
    }

    private func applyWithoutApp(_ line: Scenario.Line) async throws {
        switch line.step {
        case .wait(let duration):
            await stage.advance(by: duration)
        case .at(let timeOfDayMs):
            let target = instantOfTimeOfDay(timeOfDayMs)
            let now = stage.nowMs
            guard target >= now else {
                throw ScenarioError(line: line.number, "'at' is \((now - target) / 1000) s in the past")
            }
            await stage.advance(by: .milliseconds(target - now))
        case .box(let knob):
            await turn(knob)
            await stage.settle()
        case .relay(let knob):
            // A rotation and a restart close every stream: frames on their way are lost as in a cut.
            if knob == .rotate || knob == .restart { stays.carrierCut() }
            if let note = await stage.turn(relay: knob) { notes.append(note) }
            await stage.settle()
        case .kill:
            break
        default:
            throw ScenarioError(line: line.number, "the app is not running; 'launch' it first")
        }
    }

    private func turn(_ knob: BoxKnob) async {
        // A reboot (an update too) closes every session: frames on their way are lost as in a cut.
        switch knob {
        case .cutCarriers, .reboot, .update: stays.carrierCut()
        default: break
        }
        if let note = await stage.turn(knob) { notes.append(note) }
    }

    /// Keeps what the screen shows now, each value with its moment, in the running stay.
    private func look(at client: HeadlessClient, atEnd: Bool) async {
        guard stays.isInFront else { return }
        stays.looked(await ShownAges.read(from: client, atMs: stage.nowMs), atEnd: atEnd)
    }

    private func watchStream(_ events: BusStream<SessionEvent>) async {
        for await event in events {
            switch event {
            case .streamReturned: stays.streamReturned(atMs: stage.nowMs)
            case .liveness(let liveness): stays.liveness(liveness)
            case .connection(let state): stays.connection(state, atMs: stage.nowMs)
            case .carrierClosed(let code, let reason): stays.carrierClosed(code: code, reason: reason)
            default: break
            }
        }
    }

    private func readFailed(_ failure: ReadWatch.Failure) {
        stays.readFailed(
            FailedRead(
                atMs: stage.nowMs,
                what: failure.what,
                name: failure.name,
                why: failure.why,
                olderAnswerShown: failure.olderAnswerShown
            )
        )
    }

    /// Sends a person's command and keeps how it settled; the scenario goes on meanwhile.
    private func give(_ command: PersonCommand, to client: HeadlessClient, keptAt place: (stay: Int, index: Int)) async
    {
        let result: Result<CommandOutcome, SessionError>
        do {
            result = .success(try await client.session.command(command.request))
        } catch {
            result = .failure(error)
        }
        settled(place, result)
    }

    private func settled(_ place: (stay: Int, index: Int), _ result: Result<CommandOutcome, SessionError>) {
        let nowMs = stage.nowMs
        stays.commandSettled(place) { report in
            report.settledAtMs = nowMs
            switch result {
            case .success(let outcome):
                report.state = outcome.state
                report.error = outcome.error?.code.rawValue
            case .failure(let error):
                report.error = error.message
            }
        }
    }

    private func report() async -> ScenarioReport {
        let received = await stage.receivedRequests()
        if let received {
            await observer?.finished(received: received)
        } else {
            notes.append("the box's received requests are not visible from here: each stay lists the asks log")
        }
        let stays = stays.reports(received: received, asks: asks, endMs: stage.nowMs)
        let mismatches = stays.compactMap { stay in stay.mismatch.map { "stay \(stay.number): \($0)" } }
        return ScenarioReport(
            name: "",
            policy: policy.scenarioName,
            stays: stays,
            errors: mismatches,
            heldAtEnd: heldAtEnd,
            simulatedMs: 0,
            realMs: 0,
            notes: notes,
            sealedFiles: sealedFiles
        )
    }

    /// Keeps the store's events a person must be told of.
    private func noteSealed(_ event: SealEvent) {
        if event.mustBeTold { sealedFiles.append(event.description) }
    }
}
