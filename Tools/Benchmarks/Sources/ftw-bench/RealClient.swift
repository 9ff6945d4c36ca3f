import FTWCache
import FTWClient
import FTWClockSeam
import FTWSealInterface
import FTWSession
import FTWSessionInterface
import FTWSocketLoop
import Foundation

/// The phone in a benchmark on the real path: a child process that opens a paired data folder through `FTWClient`
/// alone, as an integrator's app does, so the numbers stay true whatever the socket layer under it becomes.
///
/// `live` comes to the front with the home screen and the battery open, waits until the stream has run for a while
/// (its models settled) and for a stretch between two five-minute turns, then holds a ``BenchWindow`` open for
/// `seconds` and prints what it saw:
///
///     window frames F bytes B seconds S cpu_us C switches W sent N sent_bytes M
///
/// `idle` launches the client into the background (nothing dialled) and does the same with no stream.
enum RealClient {
    /// Frames the stream must have delivered before the window opens: hello_ok, the snap, the models' answers.
    static let warmUpFrames = 12

    /// The client of `data`'s site `site` on the real clocks and the relay it was paired through.
    static func open(data: String, site: String) async throws -> HeadlessClient {
        guard let site = SiteID(rawValue: site) else { throw BenchError("\(site) is no site id") }
        let store = try DataFolder(url: URL(fileURLWithPath: data)).open()
        guard let paired = await PairedSite.read(site: site, from: store) else {
            throw BenchError("no paired site \(site) in \(data)")
        }
        return try HeadlessClient.onWallClock(paired: paired, store: store, policy: .ageKeyed)
    }

    /// In front with the home screen and the battery open; `seconds` counted once the stream runs; 0 runs until
    /// the process is stopped (a neighbour phone in the room).
    static func live(data: String, site: String, seconds: Int) async throws {
        let client = try await open(data: data, site: site)
        _ = await client.launch()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.run() }
            try await client.setPhase(.inactive)
            try await client.setPhase(.active)
            client.show(.now)
            client.show(.battery)
            try await waitForStream(client)
            say("streaming")
            guard seconds > 0 else { return try await stayForever() }
            try await waitForTurn(toHold: seconds + ringPeriodSeconds * 2)
            try await waitBetweenRingWrites(data: data, site: site)
            try await measure(client, seconds: seconds)
            try await client.setPhase(.background)
            group.cancelAll()
        }
    }

    /// Launched and sent to the background at once, as a phone launches an app for a background task: nothing is
    /// dialled, so the window shows what an idle client costs.
    static func idle(data: String, site: String, seconds: Int) async throws {
        let client = try await open(data: data, site: site)
        _ = await client.launch()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.run() }
            try await client.setPhase(.background)
            // Let the launch's own work finish before counting.
            try await sleep(for: .seconds(2))
            try await measure(client, seconds: seconds)
            group.cancelAll()
        }
    }

    /// Waits, outside any window, until the stream delivered ``warmUpFrames`` messages and two more seconds passed.
    private static func waitForStream(_ client: HeadlessClient) async throws {
        let deadline = ContinuousClock.now + .seconds(300)
        while await client.session.traffic.receivedMessages < warmUpFrames {
            guard ContinuousClock.now < deadline else { throw BenchError("the stream did not start in 300 s") }
            try await sleep(for: .milliseconds(200))
        }
        try await sleep(for: .seconds(2))
    }

    /// The live trace's ring file is written every 15 s while streaming (`TraceConfiguration.persistInterval`).
    static let ringPeriodSeconds = 15

    /// Waits until half a period after the ring file's next write, so a window of whole periods holds exactly one
    /// write per period. A window that opened just before a write and closed just after another held one more
    /// than its twin: about 100 k instructions, 1.7 k a frame of a 60 s window, and the two runs that another
    /// phone's frames are told apart by differed by that much. The file is looked at on disk, outside the window.
    private static func waitBetweenRingWrites(data: String, site: String) async throws {
        guard let site = SiteID(rawValue: site) else { throw BenchError("\(site) is no site id") }
        let ring = DataFolder(path: data).sealedFolder.appending(path: SealedFileName.ring(site).fileName).path
        func written() -> Date? {
            (try? FileManager.default.attributesOfItem(atPath: ring))?[.modificationDate] as? Date
        }
        let before = written()
        let deadline = ContinuousClock.now + .seconds(ringPeriodSeconds * 2)
        while written() == before {
            guard ContinuousClock.now < deadline else { throw BenchError("the ring file \(ring) was not written") }
            try await sleep(for: .milliseconds(50))
        }
        try await sleep(for: .milliseconds(ringPeriodSeconds * 500))
    }

    /// Waits until a window of `seconds` fits between two five-minute turns, 20 s after the last. At a turn a
    /// history tile closes and the open node's history asks the box again; at a quarter the prices' and the plan's
    /// names turn too, and at the hour the relay rotates its epoch. That is work of the turn, not of a frame, and it
    /// landed on whichever window held it (a 60 s window read 63 k or 88 k a frame); the asks are counted by the
    /// models' own benchmarks. A window that sent a request anyway says so (`sent`).
    private static func waitForTurn(toHold seconds: Int) async throws {
        let turnMs: Int64 = 300_000
        let settleMs: Int64 = 20_000
        let into = Int64(Date().timeIntervalSince1970 * 1_000) % turnMs
        if into < settleMs {
            try await sleep(for: .milliseconds(settleMs - into))
        } else if into + Int64(seconds) * 1_000 + 2_000 > turnMs {
            try await sleep(for: .milliseconds(turnMs - into + settleMs))
        }
    }

    private static func measure(_ client: HeadlessClient, seconds: Int) async throws {
        let before = await client.session.traffic
        let usage = BenchWindow.open()
        try await sleep(for: .seconds(seconds))
        let inside = BenchWindow.close(since: usage)
        let after = await client.session.traffic
        let frames = after.receivedMessages - before.receivedMessages
        let bytes = after.receivedBytes - before.receivedBytes
        say(
            "window frames \(frames) bytes \(bytes) seconds \(seconds) cpu_us \(inside.cpuMicroseconds) "
                + "switches \(inside.contextSwitches) sent \(after.sentMessages - before.sentMessages) "
                + "sent_bytes \(after.sentBytes - before.sentBytes)"
        )
    }

    /// Sleeps on the loop, as the client does, rather than on libdispatch's timers.
    private static func sleep(for duration: Duration) async throws {
        guard let loopClock else { return try await Task.sleep(for: duration) }
        try await loopClock.sleep(for: duration)
    }

    /// The bench's one clock on the loop: the loop reads each clock with a sleeper before it waits, so one a sleep
    /// would put a second clock's read in every frame of the window.
    private static let loopClock = (try? EventLoop.shared()).map { LoopClock(base: ContinuousClock(), loop: $0) }

    /// Writes `line` at once: the parent waits on it through a pipe, where `print` would hold it in a buffer.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private static func stayForever() async throws {
        while true { try await sleep(for: .seconds(3_600)) }
    }
}

/// One line `RealClient` printed, read back by the parent.
struct WindowReport: Sendable {
    var frames: Int
    var bytes: Int
    var seconds: Int
    var cpuMicroseconds: Int
    var contextSwitches: Int
    /// Request frames the phone sent in the window: none while it only streams.
    var sent: Int
    /// The bytes of the messages it sent.
    var sentBytes: Int

    /// Reads `window frames … switches …` from a child's output; nil when no such line is in it.
    init?(output: String) {
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("window ") }) else { return nil }
        let words = line.split(separator: " ").map(String.init)
        func value(_ name: String) -> Int? {
            words.firstIndex(of: name).flatMap { $0 + 1 < words.count ? Int(words[$0 + 1]) : nil }
        }
        guard let frames = value("frames"), let bytes = value("bytes"), let seconds = value("seconds"),
            let cpu = value("cpu_us"), let switches = value("switches")
        else { return nil }
        (self.frames, self.bytes, self.seconds, cpuMicroseconds, contextSwitches) = (
            frames, bytes, seconds, cpu, switches
        )
        sent = value("sent") ?? 0
        sentBytes = value("sent_bytes") ?? 0
    }
}
