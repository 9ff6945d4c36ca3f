import FTWBoxProtocol
import FTWBus
import FTWCrypto

/// The box's long-lived secrets: its Noise static key pair (the public half is in every enrolment QR code) and the
/// rendezvous secret both sides derive the relay room from. Kept across restarts, so an enrolled phone still finds
/// and trusts the box.
public struct DemoBoxIdentity: Sendable, Hashable, Codable {
    /// The box's X25519 static private key (32 bytes).
    public var staticPrivateKey: [UInt8]
    /// Its public half (32 bytes), what phones pin.
    public var staticPublicKey: [UInt8]
    /// The 32-byte secret the relay room's hourly handle is derived from.
    public var rendezvousSecret: [UInt8]

    /// An identity from stored keys, checking that the public key belongs to the private one.
    ///
    /// - Throws: ``DemoBoxError`` `.badIdentity` when a key or the secret has the wrong size or the keys disagree.
    public init(staticPrivateKey: [UInt8], rendezvousSecret: [UInt8]) throws(DemoBoxError) {
        guard rendezvousSecret.count == 32 else {
            throw DemoBoxError(.badIdentity, "the rendezvous secret is 32 bytes, not \(rendezvousSecret.count)")
        }
        do {
            staticPublicKey = try X25519.publicKey(privateKey: staticPrivateKey)
        } catch {
            throw DemoBoxError(.badIdentity, "the static key is not an X25519 private key: \(error)", cause: error)
        }
        self.staticPrivateKey = staticPrivateKey
        self.rendezvousSecret = rendezvousSecret
    }

    /// A fresh random identity, for a box that has never run before.
    ///
    /// - Parameter rendezvousSecret: The 32-byte secret of its relay rooms; nil for a random one; a simulation passes the same
    ///   one each run, so the relay turns each hour at the same moment (the hour's offset comes from the secret) and
    ///   its output replays, while the box's keys (and so the phone's site) are new.
    public static func generate(rendezvousSecret: [UInt8]? = nil) -> DemoBoxIdentity {
        do {
            return try DemoBoxIdentity(
                staticPrivateKey: X25519.generatePrivateKey(),
                rendezvousSecret: rendezvousSecret ?? SecureRandom.bytes(count: 32)
            )
        } catch {
            preconditionFailure("a freshly generated X25519 key was refused: \(error)")
        }
    }

    /// The QR code's link: `https://app.ftw.energy/p#v2.<pub>.<code>.<lan>.<secret>`, every segment base64url
    /// without padding; all in the fragment, so it never reaches a server.
    ///
    /// - Parameters:
    ///   - pairingCode: The 16-byte single-use code.
    ///   - lanHint: Where the box answers on the LAN (`192.168.1.20:8080`), or empty.
    public func enrolmentURL(pairingCode: [UInt8], lanHint: String) -> String {
        let segments = [staticPublicKey, pairingCode, Array(lanHint.utf8), rendezvousSecret].map(Base64URL.encode)
        return "https://app.ftw.energy/p#v2." + segments.joined(separator: ".")
    }
}
