import FTWClient
import FTWSealInterface
import Foundation
import Testing

/// A data folder the phone cannot use as it stands: another phone's key in its place, or a sealed folder this user
/// may not list. Each is named for what it is, loses nothing, and never sends a person off to pair again (which
/// would spend a code on a box that knows this phone).
@Suite(.timeLimit(.minutes(2)))
struct DataFolderFaultTests {
    private static let site = SamplePairing.site

    /// Found with another phone's `phone.key` (or 32 random bytes) in the data folder: `pairing-<site>` was dropped
    /// as if tampered, and putting the right key back did not bring it back.
    @Test func anotherPhonesKeyKeepsThePairingRecordSaysTheKeyDoesNotMatchAndTheRightKeyBringsItBack() async throws {
        let scratch = try ScratchFolder()
        let folder = try await SamplePairing.folder(at: scratch.url.appendingPathComponent("phone"))
        let key = folder.url.appendingPathComponent("phone.key")
        let record = folder.sealedFolder.appendingPathComponent("pairing-\(Self.site)")
        let ownKey = try Data(contentsOf: key)
        let sealed = try Data(contentsOf: record)
        try Data((0..<32).map { _ in UInt8.random(in: 0...255) }).write(to: key)

        let sites = try await HeadlessProcess.run(["sites", "--data", folder.url.path])
        #expect(sites.status == 1)
        #expect(sites.errorOutput.contains("could not read pairing-\(Self.site), left on disk"), "\(sites.errorOutput)")
        #expect(sites.errorOutput.contains("the phone's key is not the key that sealed the files in"))
        #expect(!sites.errorOutput.contains("dropped"))
        #expect(!sites.output.contains("no paired sites"))
        let greet = try await HeadlessProcess.run(["greet", "--data", folder.url.path])
        #expect(greet.errorOutput.contains("did not open (said above) and is kept"), "\(greet.errorOutput)")
        #expect(!greet.errorOutput.contains("pair one first"))
        let segments = [32, 16, 0, 32].map { Data(repeating: 3, count: $0).base64EncodedString() }
        let link = "https://app.ftw.energy/p#v2." + segments.map { $0.replacing("=", with: "") }.joined(separator: ".")
        let pair = try await HeadlessProcess.run(["pair", link, "--data", folder.url.path])
        #expect(pair.status == 1)
        #expect(pair.errorOutput.contains("the pairing code was not sent"), "\(pair.errorOutput)")
        #expect(try Data(contentsOf: record) == sealed, "kept as it was")

        try ownKey.write(to: key)
        let again = try await HeadlessProcess.run(["sites", "--data", folder.url.path])
        #expect(again.status == 0, "\(again.errorOutput)")
        #expect(again.output.hasPrefix("\(Self.site)  owner"), "\(again.output)")
    }

    /// Found with a data folder this user could not list: EACCES on `sealed/` read as "no paired site … pair one
    /// first". Run as the user `nobody`, so that a test running as root meets the refusal.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func aSealedFolderThisUserCannotListIsNamedWithTheSystemsReason() async throws {
        let scratch = try ScratchFolder()
        let folder = try await SamplePairing.folder(at: scratch.url.appendingPathComponent("phone"))
        for path in [scratch.url.path, folder.url.path] {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
        let nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        for command in [["sites"], ["greet"], ["run", "--real-time", "tour"]] {
            let run = try await HeadlessProcess.run(command + ["--data", folder.url.path], .init(launcher: nobody))
            #expect(run.status == 1, "\(command)")
            #expect(
                run.errorOutput == "ftw-headless: the phone's sealed files in \(folder.sealedFolder.path) could not be"
                    + " listed (cannot list \(folder.sealedFolder.path): Permission denied); they are left as they"
                    + " are: let this user read that folder, or name another with --data\n",
                "\(command): \(run.errorOutput)"
            )
        }
    }
}
