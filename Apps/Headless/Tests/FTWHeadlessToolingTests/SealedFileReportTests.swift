import FTWClient
import FTWSealInterface
import Foundation
import Testing

/// What the sealed store had to say is part of a run's report, in its text and in its JSON, instead of only
/// drawing less: here a key other users could read, which the store tightens before it uses it.
@Suite(.timeLimit(.minutes(2)))
struct SealedFileReportTests {
    @Test func aKeyReadableByOthersIsTightenedAndTheRunSaysSo() async throws {
        let scratch = try ScratchFolder()
        let data = scratch.url.appendingPathComponent("phone")
        let key = data.appendingPathComponent("phone.key")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try Data((0..<32).map { UInt8($0) }).write(to: key)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: key.path)

        let text = try await HeadlessProcess.run(["run", "--data", data.path, "quiet-device"])
        #expect(text.status == 0, "\(text.errorOutput)")
        let line = "sealed files: \(key.path) was readable by others (mode 0644): made it 0600"
        #expect(text.output.split(separator: "\n").contains { $0 == line }, "\(text.output)")
        let mode = try FileManager.default.attributesOfItem(atPath: key.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: key.path)
        let json = try await HeadlessProcess.run(["run", "--data", data.path, "--json", "quiet-device"])
        let document = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        let reported = try #require(document?["sealedFiles"] as? [String])
        #expect(reported == ["\(key.path) was readable by others (mode 0644): made it 0600"])
    }
}

/// The pairing commands say on stderr what the phone's store had to report.
@Suite(.timeLimit(.minutes(1)))
struct PairingCommandSealReportTests {
    @Test func sitesNamesAPairingRecordThatDidNotAuthenticate() async throws {
        let scratch = try ScratchFolder()
        let folder = try await SamplePairing.folder(at: scratch.url.appendingPathComponent("phone"))
        let sealed = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.sealedFolder.path).first {
                $0.hasPrefix("pairing-")
            }
        )
        let path = folder.sealedFolder.appendingPathComponent(sealed)
        var bytes = try Data(contentsOf: path)
        bytes[bytes.count - 1] ^= 0x01
        try bytes.write(to: path)

        let run = try await HeadlessProcess.run(["sites", "--data", folder.url.path])
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("no paired sites in "))
        let line =
            "ftw-headless: dropped \(sealed): it did not authenticate under the key that sealed it (changed or cut"
            + " short); its model starts empty"
        #expect(run.errorOutput.split(separator: "\n").contains { $0 == line }, "\(run.errorOutput)")
    }
}
