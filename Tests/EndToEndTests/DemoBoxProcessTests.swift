import DemoBox
import Foundation
import HeadlessTooling
import Testing

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
        #expect(await HeadlessCommand.run(["pair", link, "--relay", String(relay.dropFirst(7)), "--data", data]) == 1)
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
}
