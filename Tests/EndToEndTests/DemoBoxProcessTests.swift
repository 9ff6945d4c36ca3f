import FTWDemoBox
import FTWFixtures
import FTWHeadlessTooling
import FTWSpawning
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The documented path, as a person runs it: the built `ftw-demobox` in its own process with `--state`, and
/// `ftw-headless pair`, `greet` and `sites` over loopback (docs/pairing.md).
@Suite struct DemoBoxProcessTests {
    @Test(
        .enabled(if: DemoBoxChild.executable != nil, "ftw-demobox is not built beside the test bundle (swift build)")
    )
    func thePhonePairsWithTheDemoBoxProcessAndIsKnownAfterTheBoxRestarts() async throws {
        let executable = try #require(DemoBoxChild.executable)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ftw-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let state = root.appendingPathComponent("box")
        let data = root.appendingPathComponent("phone").path

        let first = try DemoBoxChild(executable: executable, state: state)
        var lines = first.lines.makeAsyncIterator()
        let link = try #require(await DemoBoxChild.line(&lines) { $0.hasPrefix("https://app.ftw.energy/p#v2.") })
        let relay = try #require(await DemoBoxChild.line(&lines) { $0.hasPrefix("relay: ws://127.0.0.1:") })
        #expect(await HeadlessCommand.run(["pair", link, "--relay", String(relay.dropFirst(7)), "--data", data]) == 0)
        #expect(await DemoBoxChild.line(&lines) { $0.hasPrefix("a phone enrolled") } != nil)
        let fresh = await DemoBoxChild.line(&lines) { $0.hasPrefix("https://") }
        #expect(fresh != nil && fresh != link)
        // Pairing a box that knows the phone again greets it and spends no code: the box enrols no one.
        #expect(await HeadlessCommand.run(["pair", link, "--relay", String(relay.dropFirst(7)), "--data", data]) == 0)
        #expect(await first.stop() == 0)

        let kept = try #require(try DemoBoxState.load(folder: state.path))
        #expect(kept.devices.map(\.role) == ["owner"])
        let file = state.appendingPathComponent(DemoBoxState.fileName).path
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)

        let second = try DemoBoxChild(executable: executable, state: state)
        var again = second.lines.makeAsyncIterator()
        let movedRelay = try #require(await DemoBoxChild.line(&again) { $0.hasPrefix("relay: ws://127.0.0.1:") })
        #expect(await HeadlessCommand.run(["greet", "--relay", String(movedRelay.dropFirst(7)), "--data", data]) == 0)
        #expect(await HeadlessCommand.run(["sites", "--data", data]) == 0)
        #expect(await second.stop() == 0)
        #expect(try DemoBoxState.load(folder: state.path) == kept)
    }

    @Test(
        .enabled(if: DemoBoxChild.executable != nil, "ftw-demobox is not built beside the test bundle (swift build)")
    )
    func aStatePathItCannotWriteIsRefusedAtStart() async throws {
        let executable = try #require(DemoBoxChild.executable)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ftw-e2e-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let file = root.appendingPathComponent("passwd")
        try Data("root:x:0:0".utf8).write(to: file)
        let process = ChildProcess()
        let errors = Pipe()
        process.executableURL = executable
        process.arguments = ["--port", "0", "--state", file.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        // A box that kept running would hold the pipe open for good: the watchdog ends it, and the test fails.
        let pid = process.processIdentifier
        let watchdog = Task {
            try await ContinuousClock().sleep(for: .seconds(30))
            _ = kill(pid, SIGKILL)
        }
        defer { watchdog.cancel() }
        let said = try await OwnThread.run {
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return said
        }
        #expect(process.terminationStatus == 2)
        #expect(said == "ftw-demobox: stateFile: \(file.path) is a file, not a folder: --state needs a folder\n")
        #expect(try Data(contentsOf: file) == Data("root:x:0:0".utf8))
    }
}
