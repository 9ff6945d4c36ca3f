/// SHA-1 (FIPS 180-4), used only to compute `Sec-WebSocket-Accept`.
///
/// The handshake needs SHA-1 for interoperability, not security, and this target takes no dependencies, so a small
/// implementation lives here rather than reaching for libcrypto.
enum SHA1 {
    /// The 20-byte digest of `message`.
    static func hash(_ message: [UInt8]) -> [UInt8] {
        var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        let padded = pad(message)
        for blockStart in stride(from: 0, to: padded.count, by: 64) {
            compress(padded[blockStart..<(blockStart + 64)], into: &state)
        }
        return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) } }
    }

    /// The message, a 1 bit, zeros, and the 64-bit bit length, to a multiple of 64 bytes.
    private static func pad(_ message: [UInt8]) -> [UInt8] {
        var padded = message
        padded.append(0x80)
        while padded.count % 64 != 56 { padded.append(0) }
        let bitLength = UInt64(message.count) &* 8
        for shift in stride(from: 56, through: 0, by: -8) {
            padded.append(UInt8(truncatingIfNeeded: bitLength >> shift))
        }
        return padded
    }

    private static func compress(_ block: ArraySlice<UInt8>, into state: inout [UInt32]) {
        var words = [UInt32](repeating: 0, count: 80)
        for index in 0..<16 {
            let base = block.startIndex + index * 4
            words[index] = block[base..<(base + 4)].reduce(0) { $0 << 8 | UInt32($1) }
        }
        for index in 16..<80 {
            words[index] = rotateLeft(words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16], 1)
        }
        var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
        for index in 0..<80 {
            let (f, k) = roundFunction(index, b, c, d)
            let temp = rotateLeft(a, 5) &+ f &+ e &+ k &+ words[index]
            (e, d, c, b, a) = (d, c, rotateLeft(b, 30), a, temp)
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
    }

    private static func roundFunction(_ index: Int, _ b: UInt32, _ c: UInt32, _ d: UInt32) -> (UInt32, UInt32) {
        switch index {
        case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
        case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
        case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
        default: (b ^ c ^ d, 0xCA62_C1D6)
        }
    }

    private static func rotateLeft(_ value: UInt32, _ count: UInt32) -> UInt32 {
        value << count | value >> (32 - count)
    }
}
