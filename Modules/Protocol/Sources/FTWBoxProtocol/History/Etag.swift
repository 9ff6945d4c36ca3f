/// A history tile's etag (§4.3): FNV-1a 32-bit over the tile's data, as 8 lowercase hex digits.
///
/// Only "did this tile change" needs answering, and a closed tile never does, so a cryptographic digest would buy
/// nothing; what matters is that both ends compute the same string.
public enum Etag {
    /// The etag of `bytes`.
    public static func of(_ bytes: [UInt8]) -> String {
        var hash: UInt32 = 0x811c_9dc5
        for byte in bytes {
            hash ^= UInt32(byte)
            hash &*= 0x0100_0193
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
