public import FTWBoxProtocol
import FTWCrypto

extension DeviceID {
    /// The id of the phone whose static private key is `privateKey`: what the box will call a paired site's device;
    /// nil when it is not an X25519 key.
    public init?(privateKey: [UInt8]) {
        guard let publicKey = try? X25519.publicKey(privateKey: privateKey) else { return nil }
        self.init(publicKey: publicKey)
    }
}
