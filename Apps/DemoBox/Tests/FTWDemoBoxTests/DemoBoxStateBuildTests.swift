import FTWDemoBox
import Foundation
import Testing

/// The box's build is kept with its state, so a box updated in one run is still updated in the next.
@Suite struct DemoBoxStateBuildTests {
    @Test func theBuildSurvivesTheStateFileAndAnOldFileReadsWithout() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ftw-demobox-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let identity = DemoBoxIdentity.generate()
        try DemoBoxState(identity: identity, devices: [], build: "ftw-demobox-2").save(folder: folder.path)
        #expect(try DemoBoxState.load(folder: folder.path)?.build == "ftw-demobox-2")

        let file = folder.appendingPathComponent(DemoBoxState.fileName)
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        json["build"] = nil
        try JSONSerialization.data(withJSONObject: json).write(to: file)
        let old = try #require(try DemoBoxState.load(folder: folder.path))
        #expect(old.build == nil && old.identity == identity)
    }
}
