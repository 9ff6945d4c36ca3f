/// Base64url without padding (RFC 4648 §5), read strictly: the enrolment link's segments and the device id (§8.2),
/// one encoding for the box that writes them and the app that reads them.
///
/// Strict because a link that decodes loosely (padding, `+` or `/`, stray bits) was not made by a box, and
/// accepting it would pair with bytes nobody meant.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The encoding of `bytes`, without padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        for start in stride(from: 0, to: bytes.count, by: 3) {
            let chunk = bytes[start..<min(start + 3, bytes.count)]
            let word = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset)) }
            for index in 0...chunk.count { out.append(alphabet[Int(word >> (18 - 6 * UInt32(index)) & 0x3f)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `text` encodes, or nil when it holds a character outside the alphabet, padding, a length no
    /// encoding has, or bits past the last byte that are not zero.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var bits: UInt32 = 0
        var count = 0
        var out: [UInt8] = []
        for character in text.utf8 {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            bits = bits << 6 | UInt32(value)
            count += 6
            if count >= 8 {
                count -= 8
                out.append(UInt8(truncatingIfNeeded: bits >> UInt32(count)))
                bits &= (1 << UInt32(count)) - 1
            }
        }
        guard count < 6, bits == 0 else { return nil }
        return out
    }
}
