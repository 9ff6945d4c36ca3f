import FTWNoise
import FTWSealInterface
import FTWSessionTestSupport
import FTWSpawning
import FTWTLSCertificates
import Foundation

/// `ftw-bench frame --real ws|wss [--seconds S] [--foreign] [--keep FOLDER]`: what one live frame costs a phone on
/// the real path, against a C floor built and measured in the same run.
///
/// An `ftw-demobox` process streams at 1 Hz over loopback to a phone paired with it, itself a child process that
/// opens its data folder through `FTWClient` (``RealClient``) with the home screen and the battery open. Once the
/// stream runs, the phone holds a window of S seconds (default 60) open, and the window is counted three ways:
/// callgrind (instructions, heap allocations), `getrusage` (context switches, CPU time) and `perf stat` (system
/// calls), each divided by the frames the phone received in it. The phone pays for everything its process does
/// while streaming (the ring file written every 15 s among it), as a phone does. Callgrind's run and the native
/// run are separate processes: valgrind serialises threads, so only its instruction counts are kept.
///
/// The floor (`ftw-frame-floor`, C, built with the same build): ChaCha20-Poly1305 open of a 512-byte 1 Hz delta and
/// a walk of its CBOR envelope; for `wss` each frame also a TLS record read with `SSL_read` and a WebSocket frame
/// parsed. Its frames are the in-memory bench's deltas sealed with a known key, the size and shape of the demo
/// box's.
///
/// `--foreign` adds other phones in the room: the relay hands every phone every message of the room, and another
/// phone's frames are sealed for its own session, so this phone's open fails on each. The cost of one such frame is
/// the phone's count beside the neighbours less its count alone, over the frames they added; its floor is the
/// failing open alone. There are three neighbours, the most a room holds beside the phone (four app streams; a
/// fifth is closed with 4429), not one: the two windows differ by more than the foreign frames, and over one
/// neighbour's 60 frames that difference read 3.9 k to 7.7 k a frame across four tables; over 180 it is a third.
///
/// `--keep FOLDER` copies the phone's callgrind dumps there, for `callgrind_annotate` to say where a frame's
/// instructions go; with `--foreign`, those of the run beside the neighbours go to `FOLDER/crowded`.
enum RealFrameBenchmark {
    /// The other phones in the room with `--foreign`, each streaming at 1 Hz.
    private static let neighbours = 3

    static func run(arguments: [String]) async {
        var transport = "ws"
        var seconds = 60
        var foreign = false
        var keep: URL?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "ws", "wss": transport = argument
            case "--seconds": seconds = rest.popFirst().flatMap(Int.init) ?? seconds
            case "--foreign": foreign = true
            case "--keep": keep = rest.popFirst().map { URL(fileURLWithPath: $0) }
            default: return print("usage: ftw-bench frame --real ws|wss [--seconds S] [--foreign] [--keep FOLDER]")
            }
        }
        do {
            try await measure(transport: transport, seconds: seconds, foreign: foreign, keep: keep)
        } catch {
            print("frame --real: \(error)")
        }
    }

    private static func measure(transport: String, seconds: Int, foreign: Bool, keep: URL?) async throws {
        let box = try DemoBoxProcess(tls: transport == "wss")
        defer { box.stop() }
        let phone = try await box.pairPhone("phone")
        let client = [Tool.bench.path, "frame", "real-client", phone.data.path, phone.site.rawValue, String(seconds)]
        print("frame --real \(transport): a live frame at 1 Hz from ftw-demobox over loopback, \(seconds) s windows")
        let alone = try measureClient(client, in: box.folder.appending(path: "alone"))
        if let keep { try keepDumps(of: box.folder.appending(path: "alone/callgrind"), in: keep) }
        let floor = try measureFloor(transport == "wss" ? "wss" : "open", box: box)
        report(transport: transport, client: alone, floor: floor)
        guard foreign else { return }
        var others: [ChildProcess] = []
        defer {
            for other in others {
                other.terminate()
                other.waitUntilExit()
            }
        }
        for index in 0..<neighbours {
            let neighbour = try await box.pairPhone("neighbour-\(index)")
            others.append(try startNeighbour(data: neighbour.data, site: neighbour.site.rawValue))
        }
        let crowded = try measureClient(client, in: box.folder.appending(path: "crowded"), native: false)
        let failing = try measureFloor("foreign", box: box)
        if let keep {
            try keepDumps(of: box.folder.appending(path: "crowded/callgrind"), in: keep.appending(path: "crowded"))
        }
        reportForeign(alone: alone, crowded: crowded, floor: failing)
    }

    /// Copies the callgrind dumps in `folder` into `keep` (made if missing), replacing what is there under their names.
    private static func keepDumps(of folder: URL, in keep: URL) throws {
        let files = FileManager.default
        try files.createDirectory(at: keep, withIntermediateDirectories: true)
        for name in (try? files.contentsOfDirectory(atPath: folder.path)) ?? [] {
            let target = keep.appending(path: name)
            try? files.removeItem(at: target)
            try files.copyItem(at: folder.appending(path: name), to: target)
        }
    }

    /// What callgrind, getrusage and perf counted in the phone's windows.
    struct ClientCounts {
        var callgrind: Callgrind.Counts?
        var callgrindReport: WindowReport?
        var native: WindowReport?
        var perf: PerfStat.Counts?
    }

    /// Runs the phone under callgrind, then (when `native`) on its own under perf.
    private static func measureClient(_ command: [String], in folder: URL, native: Bool = true) throws -> ClientCounts {
        var counts = ClientCounts()
        if Callgrind.available {
            let callgrind = folder.appending(path: "callgrind")
            try FileManager.default.createDirectory(at: callgrind, withIntermediateDirectories: true)
            let output = try Callgrind.run(command, folder: callgrind)
            counts.callgrind = Callgrind.counts(in: callgrind)
            counts.callgrindReport = WindowReport(output: output)
        }
        guard native else { return counts }
        let plain = folder.appending(path: "native")
        try FileManager.default.createDirectory(at: plain, withIntermediateDirectories: true)
        let (output, perf) = try PerfStat.run(command, folder: plain)
        counts.native = WindowReport(output: output)
        counts.perf = perf
        return counts
    }

    /// The floor's instructions and allocations per frame, from `ftw-frame-floor MODE`.
    private static func measureFloor(
        _ mode: String,
        box: DemoBoxProcess
    ) throws -> (instructions: Double, allocations: Double)? {
        guard Callgrind.available, let floor = Tool.product("ftw-frame-floor") else { return nil }
        let folder = box.folder.appending(path: "floor-\(mode)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let frames = 60
        try writeFloorInput(to: folder, frames: frames)
        _ = try Callgrind.run([floor.path, mode, folder.path, String(frames)], folder: folder)
        guard let counts = Callgrind.counts(in: folder) else { return nil }
        return (Double(counts.instructions) / Double(frames), Double(counts.allocations) / Double(frames))
    }

    /// Writes `frames.bin` (a receiving key and `frames` sealed 1 Hz deltas) and a server certificate for `wss`.
    static func writeFloorInput(to folder: URL, frames: Int) throws {
        let key = [UInt8](repeating: 0x5c, count: 32)
        var sender = NoiseTransport(key: key)
        var bytes = Array("FTWF".utf8) + withUnsafeBytes(of: UInt32(frames).littleEndian, Array.init) + key
        for index in 0..<frames {
            let wire = try sender.seal(HostileRelay.frame(FrameMix.delta(index), id: nil))
            bytes += withUnsafeBytes(of: UInt32(wire.count).littleEndian, Array.init) + wire
        }
        try Data(bytes).write(to: folder.appending(path: "frames.bin"))
        let now = Int64(Date().timeIntervalSince1970)
        let validity = CertificateAuthority.Validity.around(now: now, days: 1)
        let authority = try CertificateAuthority.make(commonName: "ftw-frame-floor CA", validity: validity)
        let leaf = try authority.issue(commonName: "127.0.0.1", hosts: ["127.0.0.1"], validity: validity)
        try Data(leaf.certificatePEM).write(to: folder.appending(path: "cert.pem"))
        try Data(leaf.privateKeyPEM).write(to: folder.appending(path: "key.pem"))
    }

    /// Another phone streaming in the same room until stopped; returns once its stream runs.
    private static func startNeighbour(data: URL, site: String) throws -> ChildProcess {
        let child = ChildProcess()
        child.executableURL = Tool.bench
        child.arguments = ["frame", "real-client", data.path, site, "0"]
        let pipe = Pipe()
        child.standardOutput = pipe
        try child.run()
        _ = LineReader(pipe.fileHandleForReading).next(where: { $0 == "streaming" })
        return child
    }

    private static func report(
        transport: String,
        client: ClientCounts,
        floor: (instructions: Double, allocations: Double)?
    ) {
        if let counts = client.callgrind, let window = client.callgrindReport, window.frames > 0 {
            let frames = Double(window.frames)
            let instructions = Double(counts.instructions) / frames
            print(
                String(
                    format: "frame --real %@: %.1f k instructions and %.1f allocations a frame (callgrind, %d frames)",
                    transport,
                    instructions / 1_000,
                    Double(counts.allocations) / frames,
                    window.frames
                )
            )
            if window.sent > 0 {
                print("frame --real \(transport): the window sent \(window.sent) requests: an ask is in these figures")
            }
            if let floor {
                print(
                    String(
                        format:
                            "frame --real %@: C floor %.1f k instructions and %.1f allocations a frame; ratio %.1f×",
                        transport,
                        floor.instructions / 1_000,
                        floor.allocations,
                        instructions / floor.instructions
                    )
                )
            }
        } else {
            print(
                "frame --real \(transport): instructions: \(Callgrind.available ? "the run failed" : "valgrind is not installed")"
            )
        }
        guard let native = client.native, native.frames > 0 else {
            return print("frame --real \(transport): the native run failed")
        }
        let frames = Double(native.frames)
        var line = String(
            format: "frame --real %@: %.2f context switches and %.1f µs CPU a frame (getrusage, %d frames)",
            transport,
            Double(native.contextSwitches) / frames,
            Double(native.cpuMicroseconds) / frames,
            native.frames
        )
        if let perf = client.perf {
            line += String(format: "; %.2f system calls a frame (perf)", Double(perf.syscalls) / frames)
        } else {
            line += "; system calls: perf is not installed or may not count here"
        }
        print(line)
        reportHour(transport: transport, client: client, native: native)
    }

    /// What an hour of live view costs at the window's rate: the window scaled to 3 600 s. A window between two
    /// five-minute turns (the frame rows) leaves the turns' asks out; a 300 s window holds one turn, so twelve of
    /// it are an hour with its turns (the quarters' and the hour's own asks as far as its turn was one of them,
    /// which the requests it sent tell).
    private static func reportHour(transport: String, client: ClientCounts, native: WindowReport) {
        let scale = 3_600 / Double(native.seconds)
        var parts: [String] = []
        if let counts = client.callgrind, let window = client.callgrindReport, window.seconds > 0 {
            parts.append(
                String(
                    format: "%.0f M instructions",
                    Double(counts.instructions) * 3_600 / Double(window.seconds) / 1e6
                )
            )
        }
        parts.append(String(format: "%.0f context switches", Double(native.contextSwitches) * scale))
        if let perf = client.perf {
            parts.append(String(format: "%.0f system calls", Double(perf.syscalls) * scale))
        }
        parts.append(String(format: "%.0f kB received", Double(native.bytes) * scale / 1_000))
        parts.append(String(format: "%.1f kB sent", Double(native.sentBytes) * scale / 1_000))
        print(
            "frame --real \(transport): an hour of live view at this window's rate: "
                + parts.joined(separator: ", ")
                + " (\(native.sent) requests in the \(native.seconds) s window)"
        )
    }

    private static func reportForeign(
        alone: ClientCounts,
        crowded: ClientCounts,
        floor: (instructions: Double, allocations: Double)?
    ) {
        guard let one = alone.callgrind, let oneWindow = alone.callgrindReport, let two = crowded.callgrind,
            let twoWindow = crowded.callgrindReport
        else { return print("frame --real foreign: callgrind did not count both runs") }
        let scale = Double(twoWindow.seconds) / Double(oneWindow.seconds)
        let foreignFrames = Double(twoWindow.frames) - Double(oneWindow.frames) * scale
        guard foreignFrames > 0 else { return print("frame --real foreign: the neighbours' frames did not arrive") }
        let extra = Double(two.instructions) - Double(one.instructions) * scale
        guard extra > 0 else {
            return print(
                "frame --real foreign: not told apart: the run beside the neighbours counted less than the run alone"
            )
        }
        var line = String(
            format:
                "frame --real foreign: %.1f k instructions a frame of another phone (%.0f of them; %d messages in %d s alone, %d in %d s beside it)",
            extra / foreignFrames / 1_000,
            foreignFrames,
            oneWindow.frames,
            oneWindow.seconds,
            twoWindow.frames,
            twoWindow.seconds
        )
        if let floor {
            line += String(format: "; the failing open alone (C) %.1f k", floor.instructions / 1_000)
        }
        print(line)
    }
}
