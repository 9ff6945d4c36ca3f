import Crypto

/// Where the app and the box meet on the relay: `/r/<epoch>/<handle>/…`, both derived from the QR's secret.
///
/// The handle changes every hour so the relay (and anyone watching it) cannot link one hour's room to the next.
public enum Rendezvous {
    /// The length of one epoch: one hour.
    public static let epochMilliseconds: Int64 = 3_600_000

    /// The epoch of Unix time `nowMs`: floor division, so times before 1970 fall in negative epochs rather than
    /// sharing epoch 0 with the hour after it.
    public static func epoch(nowMs: Int64) -> Int64 {
        let (quotient, remainder) = nowMs.quotientAndRemainder(dividingBy: epochMilliseconds)
        return remainder < 0 ? quotient - 1 : quotient
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
