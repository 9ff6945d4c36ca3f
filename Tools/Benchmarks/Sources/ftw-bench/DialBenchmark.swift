import FTWClient
import FTWSealInterface
import Foundation

/// `ftw-bench dial --cold [--runs R]`: what the first dial of a process costs against a later one, as a relaunched
/// app pays it: each run is a new process that greets its paired box twice through `FTWClient`'s `Pairing.greet`
/// (dial, TLS, Noise, hello), the first greet cold, the second warm. Printed for `wss://` (the relay's certificate
/// verified against the system store and the demo box's CA) and, to tell TLS from the rest, for `ws://`: medians of
/// R runs (default 5) of CPU time (`getrusage`) and wall time, and callgrind's instructions of one run.
enum DialBenchmark {
    static func run(arguments: [String]) async {
        if arguments.first == "child", arguments.count == 3 {
            do {
                try await child(data: arguments[1], site: arguments[2])
            } catch {
                print("dial child: \(error)")
            }
            return
        }
        guard arguments.first == "--cold" else { return print("usage: ftw-bench dial --cold [--runs R]") }
        let runs =
            arguments.firstIndex(of: "--runs").flatMap { arguments.dropFirst($0 + 1).first.flatMap(Int.init) } ?? 5
        for transport in ["wss", "ws"] {
            do {
                try await measure(transport: transport, runs: runs)
            } catch {
                print("dial --cold \(transport): \(error)")
            }
        }
    }

    private struct Greets {
        var coldCPU: Int
        var coldWall: Int
        var warmCPU: Int
        var warmWall: Int

        init?(output: String) {
            var values: [Int: (cpu: Int, wall: Int)] = [:]
            for line in output.split(separator: "\n") where line.hasPrefix("greet ") {
                let words = line.split(separator: " ").map(String.init)
                guard words.count == 6, let attempt = Int(words[1]), let cpu = Int(words[3]), let wall = Int(words[5])
                else { continue }
                values[attempt] = (cpu, wall)
            }
            guard let cold = values[0], let warm = values[1] else { return nil }
            (coldCPU, coldWall, warmCPU, warmWall) = (cold.cpu, cold.wall, warm.cpu, warm.wall)
        }
    }

    private static func measure(transport: String, runs: Int) async throws {
        let box = try DemoBoxProcess(tls: transport == "wss")
        defer { box.stop() }
        let phone = try await box.pairPhone("phone")
        let command = [Tool.bench.path, "dial", "child", phone.data.path, phone.site.rawValue]
        var greets: [Greets] = []
        var failure = ""
        for _ in 0..<runs {
            let output = try Tool.output(of: command)
            if let run = Greets(output: output) { greets.append(run) } else { failure = output }
        }
        guard !greets.isEmpty else { return print("dial --cold \(transport): no run finished: \(failure)") }
        func median(_ values: [Int]) -> Double { Double(values.sorted()[values.count / 2]) / 1_000 }
        let coldCPU = median(greets.map(\.coldCPU))
        let warmCPU = median(greets.map(\.warmCPU))
        print(
            String(
                format: "dial --cold %@: first greet of a process %.1f ms CPU (%.1f ms wall), a warm one %.1f ms CPU "
                    + "(%.1f ms wall): the first costs +%.1f ms CPU (medians of %d runs)",
                transport,
                coldCPU,
                median(greets.map(\.coldWall)),
                warmCPU,
                median(greets.map(\.warmWall)),
                coldCPU - warmCPU,
                greets.count
            )
        )
        guard Callgrind.available else { return }
        let folder = box.folder.appending(path: "callgrind")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = try Callgrind.run(command, folder: folder)
        guard let counts = Callgrind.counts(in: folder), counts.each.count == 2 else { return }
        print(
            String(
                format: "dial --cold %@: %.2f M instructions for the first greet, %.2f M for a warm one (callgrind)",
                transport,
                Double(counts.each[0]) / 1e6,
                Double(counts.each[1]) / 1e6
            )
        )
    }

    /// Greets the paired site twice, each in a window, printing `greet N cpu_us C wall_us W`.
    private static func child(data: String, site: String) async throws {
        guard let id = SiteID(rawValue: site) else { throw BenchError("\(site) is no site id") }
        let store = try DataFolder(url: URL(fileURLWithPath: data)).open()
        guard let paired = await PairedSite.read(site: id, from: store) else {
            throw BenchError("no paired site \(site) in \(data)")
        }
        let pairing = Pairing.onWallClock(store: store)
        for attempt in 0..<2 {
            let usage = BenchWindow.open()
            let start = ContinuousClock.now
            _ = try await pairing.greet(paired)
            let wall = start.duration(to: .now)
            let inside = BenchWindow.close(since: usage)
            RealClient.say("greet \(attempt) cpu_us \(inside.cpuMicroseconds) wall_us \(Int(wall / .microseconds(1)))")
        }
    }
}
