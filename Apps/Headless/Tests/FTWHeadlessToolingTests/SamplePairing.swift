import FTWClient
import FTWSealInterface
import Foundation

/// A finished pairing with a made-up box, sealed in a data folder: for tests of what the commands do with a phone's
/// folder, which need no box to answer.
enum SamplePairing {
    static let site = SiteID(rawValue: "0123456789abcdef")!

    /// The record: an owner, paired through the demo box's relay address.
    static let record = PairedSite(
        site: site,
        boxStaticPublicKey: [UInt8](repeating: 7, count: 32),
        rendezvousSecret: [UInt8](repeating: 8, count: 32),
        lanHint: "",
        devicePrivateKey: [UInt8](repeating: 9, count: 32),
        pairingCode: [],
        role: "owner",
        relay: RelayAddress.demoBox.description
    )

    /// A data folder at `url` holding the record, sealed under a key made for it.
    static func folder(at url: URL) async throws -> DataFolder {
        let folder = DataFolder(url: url)
        try await record.write(to: folder.unlockedStore())
        return folder
    }
}
