/// Writes the ring file's numbers: bytes, LEB128 varints and zigzag varints for signed deltas.
struct RingFileWriter {
    /// What was written so far.
    private(set) var bytes: [UInt8] = []

    /// Reserves room for about `count` bytes, so a whole file is written into one buffer.
    init(reservingCapacity count: Int) {
        bytes.reserveCapacity(count)
    }

    /// One byte.
    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    /// An unsigned LEB128 varint: 7 bits a byte, high bit set on every byte but the last.
    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: rest))
    }

    /// A count or length.
    mutating func count(_ value: Int) {
        varint(UInt64(max(0, value)))
    }

    /// A signed number, zigzag-encoded so small magnitudes of either sign take one byte.
    mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }
}
