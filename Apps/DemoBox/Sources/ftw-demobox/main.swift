import Dispatch
import FTWBus
import FTWClockSeam
import FTWDemoBox
import FTWSocketLoop
import Foundation

/// Writes a line at once, even when stdout is a pipe.
func say(_ line: String, to handle: FileHandle = .standardOutput) {
    handle.write(Data((line + "\n").utf8))
}

/// SIGINT and SIGTERM as a stream; the sources are returned so they live as long as the program.
func stopSignals() -> (AsyncStream<Int32>, [any DispatchSourceSignal]) {
    let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
    let queue = DispatchQueue(label: "ftw-demobox.signals")
    let sources = [SIGINT, SIGTERM].map { number in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
        source.setEventHandler { @Sendable in continuation.yield(number) }
        source.resume()
        return source
    }
    return (stream, sources)
}

/// Prints a fresh enrolment link whenever the last one can no longer enrol: after a phone enrols (its code is
/// spent), when a code burns after 5 wrong guesses, and when the code's 10 minutes are up, as a real box redraws its
/// QR code.
func announceLinks(of box: SimulatedBox, lanHint: String, clock: any Clock<Duration>) async {
    let lifetime = Duration.seconds(600)
    let enrolments = await box.enrolmentUpdates()
    let burns = await box.burntCodes()
    let (renewals, renew) = AsyncStream.makeStream(of: Int.self)
    var generation = 0
    await withTaskGroup(of: Void.self) { group in
        group.addTask {
            for await _ in enrolments.dropFirst() { renew.yield(-1) }
        }
        group.addTask {
            for await _ in burns { renew.yield(-2) }
        }
        group.addTask {
            guard (try? await clock.sleep(for: lifetime)) != nil else { return }
            renew.yield(0)
        }
        for await renewal in renewals where renewal < 0 || renewal == generation {
            generation += 1
            let next = generation
            switch renewal {
            case -1: say("a phone enrolled; a new link:")
            case -2: say("a code burnt after 5 wrong guesses; a new link:")
            default: say("the code expired; a new link:")
            }
            say(await box.enrolmentURL(lanHint: lanHint))
            group.addTask {
                guard (try? await clock.sleep(for: lifetime)) != nil else { return }
                renew.yield(next)
            }
        }
        group.cancelAll()
    }
}

/// The relay's lines on standard output, as they come: how each phone's stream left (1000, or a dropped 1006).
struct StandardOutputLog: LogSink {
    func log(_ entry: LogEntry) {
        say(entry.message)
    }
}

/// The command line and the kept state, or the process ends with status 2 saying why.
func start() -> (DemoBoxOptions, DemoBoxState) {
    do {
        let options = try DemoBoxOptions.parse(Array(CommandLine.arguments.dropFirst()))
        if options.showsHelp {
            say(DemoBoxOptions.usage)
            exit(0)
        }
        let kept = try options.stateFolder.flatMap { folder throws(DemoBoxError) in
            try DemoBoxState.load(folder: folder)
        }
        let state = kept ?? DemoBoxState(identity: .generate(), devices: [])
        try options.stateFolder.map { folder throws(DemoBoxError) in try state.save(folder: folder) }
        return (options, state)
    } catch {
        say("ftw-demobox: \(error)", to: .standardError)
        exit(2)
    }
}

/// Why the demo box stops: a person's signal, or a part of it that died (which must not go unnoticed: a box with no
/// listening socket would look alive and serve nobody).
enum Ending: Sendable {
    case signal(Int32)
    case died(String)
}

/// Runs `part` and reports its end, whatever it is, as a death.
func watch(_ name: String, reporting end: AsyncStream<Ending>.Continuation, _ part: () async throws -> Void) async {
    do {
        try await part()
        end.yield(.died("the \(name) stopped"))
    } catch {
        end.yield(.died("the \(name) failed: \(error)"))
    }
}

/// Runs the box and its relay until a signal or a death; returns the exit status.
///
/// Everything runs on `loop`: the relay's sockets, the box, and every timer (on `clock`, the loop's), so no task
/// and no timer reaches libdispatch's worker pool, whose monitor traps (SIGILL) when it cannot open
/// `/proc/<tid>/stat` at the descriptor limit.
func serve(_ options: DemoBoxOptions, _ state: DemoBoxState, clock: any Clock<Duration>) async -> Int32 {
    var configuration = options.configuration(identity: state.identity, devices: state.devices)
    if let build = state.build { configuration.build = build }
    let box = SimulatedBox(configuration: configuration, clock: clock, wallClock: SystemWallClock())
    let relay: DemoRelayServer
    let tls: DemoBoxTLS?
    do {
        tls = try options.stateFolder.flatMap { folder throws(DemoBoxError) in
            guard options.servesTLS else { return nil }
            return try DemoBoxTLS.loadOrCreate(folder: folder, nowSeconds: SystemWallClock().nowMs / 1000)
        }
        relay = try DemoRelayServer(box: box, port: options.port, clock: clock, tls: tls, log: StandardOutputLog())
    } catch {
        say("ftw-demobox: \(error)", to: .standardError)
        return 1
    }
    let lanHint = "127.0.0.1:\(relay.port)"
    say(await box.enrolmentURL(lanHint: lanHint))
    if let tls {
        say("relay: wss://127.0.0.1:\(relay.port)")
        say("ca: \(tls.caFile)")
    } else {
        say("relay: ws://127.0.0.1:\(relay.port)")
    }
    if let note = options.relayScheduleNote { say(note) }
    if let note = options.relayBeatNote(configuration.relayBeat) { say(note) }
    let (stop, signalSources) = stopSignals()
    let (endings, end) = AsyncStream.makeStream(of: Ending.self)
    let status: Int32 = await withTaskGroup(of: Void.self) { group in
        group.addTask { await watch("box", reporting: end) { try await box.run() } }
        group.addTask { await watch("relay", reporting: end) { try await relay.run() } }
        group.addTask {
            for await number in stop {
                end.yield(.signal(number))
                return
            }
        }
        group.addTask { await announceLinks(of: box, lanHint: lanHint, clock: clock) }
        if let folder = options.stateFolder {
            group.addTask {
                for await devices in await box.enrolmentUpdates() {
                    do {
                        try DemoBoxState(identity: state.identity, devices: devices, build: state.build).save(
                            folder: folder
                        )
                    } catch {
                        say("ftw-demobox: \(error)", to: .standardError)
                    }
                }
            }
        }
        var status: Int32 = 0
        for await ending in endings {
            switch ending {
            case .signal(let number):
                say("ftw-demobox: stopping on signal \(number)", to: .standardError)
            case .died(let reason):
                say("ftw-demobox: \(reason); stopping", to: .standardError)
                status = 1
            }
            break
        }
        await relay.close()
        group.cancelAll()
        return status
    }
    if let folder = options.stateFolder {
        do {
            try DemoBoxState(identity: state.identity, devices: await box.enrolledDevices, build: state.build)
                .save(folder: folder)
        } catch {
            say("ftw-demobox: \(error)", to: .standardError)
        }
    }
    withExtendedLifetime(signalSources) {}
    return status
}

let (options, state) = start()
let loop: EventLoop
do {
    loop = try EventLoop.shared()
} catch {
    say("ftw-demobox: \(error)", to: .standardError)
    exit(1)
}
let clock = LoopClock(base: ContinuousClock(), loop: loop)
exit(loop.runBlocking { [options, state, clock] in await serve(options, state, clock: clock) })
