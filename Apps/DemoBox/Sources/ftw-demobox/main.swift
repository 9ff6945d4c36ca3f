import ClockSeam
import DemoBox
import Dispatch
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
func announceLinks(of box: SimulatedBox, lanHint: String) async {
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
            guard (try? await ContinuousClock().sleep(for: lifetime)) != nil else { return }
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
                guard (try? await ContinuousClock().sleep(for: lifetime)) != nil else { return }
                renew.yield(next)
            }
        }
        group.cancelAll()
    }
}

let options: DemoBoxOptions
let state: DemoBoxState
do {
    options = try DemoBoxOptions.parse(Array(CommandLine.arguments.dropFirst()))
    if options.showsHelp {
        say(DemoBoxOptions.usage)
        exit(0)
    }
    let kept = try options.stateFolder.flatMap { folder throws(DemoBoxError) in try DemoBoxState.load(folder: folder) }
    state = kept ?? DemoBoxState(identity: .generate(), devices: [])
    try options.stateFolder.map { folder throws(DemoBoxError) in try state.save(folder: folder) }
} catch {
    say("ftw-demobox: \(error)", to: .standardError)
    exit(2)
}

let box = SimulatedBox(
    configuration: options.configuration(identity: state.identity, devices: state.devices),
    clock: ContinuousClock(),
    wallClock: SystemWallClock()
)
let relay: DemoRelayServer
do {
    relay = try DemoRelayServer(box: box, port: options.port, clock: ContinuousClock())
} catch {
    say("ftw-demobox: \(error)", to: .standardError)
    exit(1)
}
let lanHint = "127.0.0.1:\(relay.port)"
say(await box.enrolmentURL(lanHint: lanHint))
say("relay: ws://127.0.0.1:\(relay.port)")

let (stop, signalSources) = stopSignals()
await withTaskGroup(of: Void.self) { group in
    group.addTask { try? await box.run() }
    group.addTask { try? await relay.run() }
    group.addTask { await announceLinks(of: box, lanHint: lanHint) }
    if let folder = options.stateFolder {
        group.addTask {
            for await devices in await box.enrolmentUpdates() {
                do {
                    try DemoBoxState(identity: state.identity, devices: devices).save(folder: folder)
                } catch {
                    say("ftw-demobox: \(error)", to: .standardError)
                }
            }
        }
    }
    for await number in stop {
        say("ftw-demobox: stopping on signal \(number)", to: .standardError)
        break
    }
    await relay.close()
    group.cancelAll()
}
if let folder = options.stateFolder {
    do {
        try DemoBoxState(identity: state.identity, devices: await box.enrolledDevices).save(folder: folder)
    } catch {
        say("ftw-demobox: \(error)", to: .standardError)
    }
}
withExtendedLifetime(signalSources) {}
