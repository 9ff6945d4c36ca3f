import FTWBus
import FTWClockSeam
import FTWDemoBox
import Foundation
import Testing

/// `ftw-demobox --tls`: the CA and server certificate it keeps in its state folder.
@Suite struct DemoBoxTLSTests {
    private static func folder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("demobox-tls-\(UUID().uuidString)").path
    }

    private static let now = SystemWallClock().nowMs / 1000

    @Test func theFirstStartMakesTheFilesWithPrivateKeysAndLaterStartsReuseThem() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try DemoBoxTLS.loadOrCreate(folder: folder, nowSeconds: Self.now)
        #expect(first.caFile == (folder as NSString).appendingPathComponent(DemoBoxTLS.caFileName))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files == ["tls-ca-key.pem", "tls-ca.pem", "tls-server-key.pem", "tls-server.pem"])
        for (file, mode) in [("tls-ca-key.pem", 0o600), ("tls-server-key.pem", 0o600), ("tls-ca.pem", 0o644)] {
            let path = (folder as NSString).appendingPathComponent(file)
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == mode, "\(file)")
        }
        let ca = try #require(FileManager.default.contents(atPath: first.caFile))
        #expect(String(decoding: ca, as: UTF8.self).hasPrefix("-----BEGIN CERTIFICATE-----"))
        let second = try DemoBoxTLS.loadOrCreate(folder: folder, nowSeconds: Self.now + 86_400)
        #expect(FileManager.default.contents(atPath: second.caFile) == ca)
    }

    @Test func aFolderWithOnlySomeOfTheFilesIsRefusedRatherThanOverwritten() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let made = try DemoBoxTLS.loadOrCreate(folder: folder, nowSeconds: Self.now)
        let key = (folder as NSString).appendingPathComponent("tls-server-key.pem")
        try FileManager.default.removeItem(atPath: key)
        #expect {
            try DemoBoxTLS.loadOrCreate(folder: folder, nowSeconds: Self.now)
        } throws: { error in
            (error as? DemoBoxError)?.code == .stateFile
        }
        #expect(FileManager.default.fileExists(atPath: made.caFile))
    }
}
