import Foundation
import HeadlessTooling
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

    @Test("an unknown option is refused with exit status 1")
    func unknownOption() async {
        #expect(await HeadlessCommand.run(["run", "quiet-device", "--fast"]) == 1)
    }
}
