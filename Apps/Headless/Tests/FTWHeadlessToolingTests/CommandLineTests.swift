import FTWHeadlessTooling
import Foundation
import Testing

/// The command line as a person types it: options may come before or after the scenario's name.
@Suite("Command line")
struct CommandLineTests {
    @Test("'run --data DIR NAME' runs NAME and keeps its sealed files in DIR")
    func optionsBeforeTheName() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ftw-command-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let status = await HeadlessCommand.run(["run", "--data", folder.path, "--json", "quiet-device"])
        #expect(status == 0)
        let sealed = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("sealed").path)
        #expect(sealed.contains { $0.hasPrefix("pairing-") })
        #expect(sealed.contains { $0.hasPrefix("tiles-") })
    }

    /// docs/tools.md's commands table went stale as scenarios and options were added: it must name every shipped
    /// scenario and `run`'s every option.
    @Test("docs/tools.md names every shipped scenario and every option of run")
    func toolsDocIsCurrent() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let doc = try String(contentsOf: root.appendingPathComponent("docs/tools.md"), encoding: .utf8)
        let rows = doc.split(separator: "\n")
        let scenarios = try #require(rows.first { $0.hasPrefix("| `scenarios` |") })
        for name in BuiltInScenario.names {
            #expect(scenarios.contains("`\(name)`"), "docs/tools.md does not list the shipped scenario \(name)")
        }
        let run = try #require(rows.first { $0.hasPrefix("| `run SCENARIO [") })
        for option in ["--policy", "--data", "--json", "--timeline", "--svg"] {
            #expect(run.contains("[\(option)"), "docs/tools.md does not list run's \(option)")
        }
    }

    @Test("an unknown option is refused with exit status 1")
    func unknownOption() async {
        #expect(await HeadlessCommand.run(["run", "quiet-device", "--fast"]) == 1)
    }
}
