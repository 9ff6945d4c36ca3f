import FTWSealInterface
import Foundation

/// `ftw-bench idle [--seconds S]`: what a launched client costs while it sits in the background with nothing
/// dialled: its wake-ups (context switches, from `getrusage`), system calls (`perf stat`) and instructions
/// (callgrind) over a window of S seconds (default 60), per second. The target is nothing at all: an idle client
/// has no reason to wake. The child runs as `ftw-headless` runs a client, on the process's event loop, and waits on
/// the loop's timer (`LoopClock`), so the one wake-up a window always holds is its own end.
enum IdleBenchmark {
    static func run(arguments: [String]) async {
        if arguments.first == "client", arguments.count == 4 {
            do {
                try await RealClient.idle(data: arguments[1], site: arguments[2], seconds: Int(arguments[3]) ?? 60)
            } catch {
                print("idle client: \(error)")
            }
            return
        }
        let seconds = arguments.first == "--seconds" ? arguments.dropFirst().first.flatMap(Int.init) ?? 60 : 60
        do {
            let box = try DemoBoxProcess(tls: false)
            defer { box.stop() }
            let phone = try await box.pairPhone("phone")
            let command = [Tool.bench.path, "idle", "client", phone.data.path, phone.site.rawValue, String(seconds)]
            print("idle: a client launched into the background, nothing dialled, a \(seconds) s window")
            var instructions: Int?
            if Callgrind.available {
                let folder = box.folder.appending(path: "callgrind")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                _ = try Callgrind.run(command, folder: folder)
                if let counts = Callgrind.counts(in: folder) {
                    instructions = counts.instructions
                    print(
                        String(
                            format: "idle: %.1f k instructions and %.2f allocations a second (callgrind)",
                            Double(counts.instructions) / Double(seconds) / 1_000,
                            Double(counts.allocations) / Double(seconds)
                        )
                    )
                }
            }
            let folder = box.folder.appending(path: "native")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let (output, perf) = try PerfStat.run(command, folder: folder)
            guard let window = WindowReport(output: output) else { return print("idle: the run failed: \(output)") }
            var line = String(
                format: "idle: %.2f context switches a second (%.0f a minute), %.1f µs CPU a second (getrusage)",
                Double(window.contextSwitches) / Double(seconds),
                Double(window.contextSwitches) * 60 / Double(seconds),
                Double(window.cpuMicroseconds) / Double(seconds)
            )
            if let perf {
                line += String(format: "; %.2f system calls a second (perf)", Double(perf.syscalls) / Double(seconds))
            }
            print(line)
            printHour(window: window, instructions: instructions, syscalls: perf?.syscalls, seconds: seconds)
        } catch {
            print("idle: \(error)")
        }
    }

    /// An hour in the background at the window's rate; the bench's own timer that ends the window is one context
    /// switch of it, left out.
    private static func printHour(window: WindowReport, instructions: Int?, syscalls: Int?, seconds: Int) {
        let scale = 3_600 / Double(seconds)
        var parts: [String] = []
        if let instructions { parts.append(String(format: "%.1f M instructions", Double(instructions) * scale / 1e6)) }
        parts.append(String(format: "%.0f wake-ups", Double(max(0, window.contextSwitches - 1)) * scale))
        if let syscalls { parts.append(String(format: "%.0f system calls", Double(syscalls) * scale)) }
        parts.append("\(Int(Double(window.bytes + window.sentBytes) * scale)) bytes")
        print("idle: an hour in the background at this window's rate: " + parts.joined(separator: ", "))
    }
}
