/// Command idempotency keys: UUIDv7 (RFC 9562), time-ordered so the box can expire its table of seen keys by age.
enum CommandID {
    /// A UUIDv7 string: 48 bits of Unix ms, the version and variant, and 74 random bits.
    static func make(nowMs: Int64, random: any RandomSource) -> String {
        let milliseconds = UInt64(clamping: max(0, nowMs)) & 0xFFFF_FFFF_FFFF
        var bytes = (0..<6).map { UInt8(truncatingIfNeeded: milliseconds >> (40 - 8 * $0)) }
        for _ in 0..<3 {
            let word = UInt32((random.nextUnit() * 4_294_967_296).rounded(.down))
            bytes += (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) }
        }
        bytes[6] = 0x70 | bytes[6] & 0x0F
        bytes[8] = 0x80 | bytes[8] & 0x3F
        let hex = bytes.map { byte in String(byte, radix: 16).leftPadded(to: 2) }
        return [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { hex[$0].joined() }.joined(separator: "-")
    }
}

extension String {
    /// The string with leading zeros up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
