/// Standard base64 (RFC 4648 §4, padded), for the handshake's key and accept values.
///
/// Decoding is strict, because a server must refuse a malformed `Sec-WebSocket-Key`: only the standard alphabet,
/// a length that is a multiple of four, padding only at the end, and zero bits in the padding positions.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The padded base64 text of `bytes`.
    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        for start in stride(from: 0, to: bytes.count, by: 3) {
            let chunk = bytes[start..<min(start + 3, bytes.count)]
            let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset)) }
            for index in 0..<4 {
                let sextet = Int(value >> (18 - 6 * UInt32(index)) & 0x3F)
                output.append(index <= chunk.count ? alphabet[sextet] : UInt8(ascii: "="))
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes `text` encodes, or nil if it is not canonical padded base64.
    static func decode(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count % 4 == 0 else { return nil }
        var output: [UInt8] = []
        for start in stride(from: 0, to: characters.count, by: 4) {
            let isLast = start + 4 == characters.count
            guard let bytes = decodeQuantum(characters[start..<(start + 4)], isLast: isLast) else { return nil }
            output.append(contentsOf: bytes)
        }
        return output
    }

    private static func decodeQuantum(_ quantum: ArraySlice<UInt8>, isLast: Bool) -> [UInt8]? {
        let padding = quantum.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2, padding == 0 || isLast else { return nil }
        var value: UInt32 = 0
        for character in quantum.dropLast(padding) {
            guard let sextet = alphabet.firstIndex(of: character) else { return nil }
            value = value << 6 | UInt32(sextet)
        }
        value <<= 6 * UInt32(padding)
        let bytes = (0..<(3 - padding)).map { UInt8(truncatingIfNeeded: value >> (16 - 8 * UInt32($0))) }
        let unusedBits = value & ((1 << (8 * UInt32(padding))) - 1)
        return unusedBits == 0 ? bytes : nil
    }
}
