import FTWCrypto

/// Where the app and the box meet on the relay: `/r/<epoch>/<handle>/…`, both derived from the QR's secret.
///
/// The handle changes every hour so the relay (and anyone watching it) cannot link one hour's room to the next.
public enum Rendezvous {
    /// The production relay's epoch of Unix time `nowMs`: the floored hour (``RelaySchedule/production``).
    public static func epoch(nowMs: Int64) -> Int64 {
        RelaySchedule.production.epoch(nowMs: nowMs)
    }

    /// The room handle for `epoch`: lowercase hex of the first 16 bytes of HKDF-SHA256 with the rendezvous secret
    /// as input, 32 zero bytes as salt and `"ftw/rendezvous/v1/<epoch>"` as info (32 hex characters).
    public static func handle(secret: [UInt8], epoch: Int64) -> String {
        let bytes = HKDF.sha256(
            ikm: secret,
            salt: [UInt8](repeating: 0, count: 32),
            info: Array("ftw/rendezvous/v1/\(epoch)".utf8),
            outputLength: 16
        )
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] }, as: UTF8.self)
    }
}
