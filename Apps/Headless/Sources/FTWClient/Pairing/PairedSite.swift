public import FTWSealInterface
public import FTWSession
import Foundation

/// A home this phone is paired with: what the QR code gave, the device key made for it, and what the box granted.
///
/// Kept sealed under the phone's key (`pairing-<site>`), so a later run reconnects as a known device and
/// `forget` erases it with the rest of the site's files.
public struct PairedSite: Sendable, Hashable, Codable {
    /// The site: the first 16 hex digits of SHA-256 of the box's key.
    public var site: SiteID
    /// The box's Noise static public key (32 bytes).
    public var boxStaticPublicKey: [UInt8]
    /// The relay rendezvous secret (32 bytes): the room's name changes with the epoch.
    public var rendezvousSecret: [UInt8]
    /// Where the box said it can be found on the LAN (may be empty).
    public var lanHint: String
    /// This device's X25519 static private key for the site: its identity on the box.
    public var devicePrivateKey: [UInt8]
    /// The pairing code while the box has not accepted us yet; empty afterwards (a code is single use).
    public var pairingCode: [UInt8]
    /// The role the box granted (`owner`, `viewer`), once it answered hello.
    public var role: String?
    /// The scopes the box granted, once it answered hello.
    public var scopes: [String]
    /// The relay this site is reached through, such as `wss://relay.ftw.energy:443`; nil for the in-process demo box.
    public var relay: String?
    /// A PEM file of CA certificates trusted for this site's `wss://` relay besides the system's (a self-hosted relay,
    /// `ftw-demobox --tls`); nil for the system trust store alone.
    public var caFile: String?

    /// Whether the code may already have reached the box: true for a pending record read back from the store (it is
    /// sealed just before its code first leaves, so an earlier process may have offered it and lost the answer, or
    /// been killed), false for one just made. Not sealed: it is what reading the record learns.
    public var codeMayBeSpent = false

    /// Whether the enrolment is still pending: the code was sent (or was about to be) but no hello has confirmed that
    /// the box spent it for this phone. A pending site is greeted as a known device first, since the box may have
    /// enrolled it while its answer was lost.
    public var isPending: Bool { role == nil }

    /// The session's identity for this site: its device key, the box's key, and the code while the enrolment is
    /// pending, offered only after a greeting as a known device when it may have reached the box before.
    public var sessionIdentity: SessionIdentity {
        SessionIdentity(
            appStaticPrivateKey: devicePrivateKey,
            boxStaticPublicKey: boxStaticPublicKey,
            payload: pairingCode,
            codeMayBeSpent: codeMayBeSpent
        )
    }

    /// Makes a record.
    public init(
        site: SiteID,
        boxStaticPublicKey: [UInt8],
        rendezvousSecret: [UInt8],
        lanHint: String,
        devicePrivateKey: [UInt8],
        pairingCode: [UInt8],
        role: String? = nil,
        scopes: [String] = [],
        relay: String? = nil,
        caFile: String? = nil
    ) {
        self.site = site
        self.boxStaticPublicKey = boxStaticPublicKey
        self.rendezvousSecret = rendezvousSecret
        self.lanHint = lanHint
        self.devicePrivateKey = devicePrivateKey
        self.pairingCode = pairingCode
        self.role = role
        self.scopes = scopes
        self.relay = relay
        self.caFile = caFile
    }

    /// The fields an older build's JSON record holds; ``codeMayBeSpent`` is learnt, not kept.
    private enum CodingKeys: String, CodingKey {
        case site, boxStaticPublicKey, rendezvousSecret, lanHint, devicePrivateKey, pairingCode, role, scopes, relay
        case caFile
    }

    /// The kept file's model name: the pairing record is sealed like any model file, as `pairing-<site>`.
    public static let fileModel = "pairing"

    /// Reads the record of `site` from `store`, nil when there is none (or it failed to open or decode).
    ///
    /// A record an older build wrote is JSON: it is read as such and left as it is (a launch writes nothing); the
    /// next write of the record makes it binary. Unlike a model's file it is never discarded when it does not
    /// decode: it holds the device key the box knows this phone by, and no box answer can give it back.
    public static func read(site: SiteID, from store: any SealedStore) async -> PairedSite? {
        guard let name = try? SealedFileName(kind: .kept, site: site, model: fileModel),
            let bytes = await store.read(name)
        else { return nil }
        var record: PairedSite
        do {
            record = try SealedContents.decode(bytes, file: name.fileName)
        } catch  where error.code == .olderFormat {
            guard let older = try? JSONDecoder().decode(PairedSite.self, from: Data(bytes)) else { return nil }
            record = older
        } catch {
            return nil
        }
        record.codeMayBeSpent = record.isPending && !record.pairingCode.isEmpty
        return record
    }

    /// Seals the record in `store`, in the binary layout of every model file.
    ///
    /// - Throws: ``/FTWSealInterface/SealError`` when the file cannot be written.
    public func write(to store: any SealedStore) async throws(SealError) {
        try await store.keepContents(self, name: Self.fileModel, site: site)
    }

    /// Erases every sealed file of `site` in `store`, its pairing record last: a process killed part way leaves the
    /// site paired with some of its cache gone, which a launch reads without error, never a forgotten site's files
    /// without their record. ``HeadlessClient/forget(_:)`` and `ftw-headless forget SITE` both erase this way.
    ///
    /// - Throws: ``/FTWSealInterface/SealError`` with `.io` when a file could not be removed; the record is then still
    ///   there.
    public static func forget(site: SiteID, in store: any SealedStore) async throws(SealError) {
        try await store.erase(site: site, lastModel: fileModel)
    }

    /// Every site paired on this phone, from the sealed files in `store`.
    public static func all(in store: any SealedStore) async -> [PairedSite] {
        var sites: [PairedSite] = []
        for file in await store.files() {
            let name = file.name
            guard name.kind == .kept, name.model == fileModel,
                let record = await read(site: name.site, from: store)
            else { continue }
            sites.append(record)
        }
        return sites.sorted { $0.site.rawValue < $1.site.rawValue }
    }
}
