/// Writes the fields of a sealed file's contents in the compact layout every model file shares: LEB128 varints for
/// counts and unsigned numbers, zigzag varints for signed ones, length-prefixed UTF-8 for text.
///
/// Hand-written per type (``SealedCodable``) instead of `Codable`: a cold start decodes these files before it
/// draws, and the encoder's keyed containers cost hundreds of instructions a byte where this costs tens.
public struct BinaryWriter: Sendable {
    /// What was written so far.
    public private(set) var bytes: [UInt8] = []

    /// Reserves room for about `count` bytes, so a whole file is written into one buffer.
    public init(reservingCapacity count: Int) {
        bytes.reserveCapacity(count)
    }

    /// One byte.
    public mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    /// Bytes as they are, such as a magic.
    public mutating func raw(_ value: [UInt8]) {
        bytes.append(contentsOf: value)
    }

    /// An unsigned LEB128 varint: 7 bits a byte, high bit set on every byte but the last.
    public mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: rest))
    }

    /// A count or length.
    public mutating func count(_ value: Int) {
        varint(UInt64(max(0, value)))
    }

    /// A signed number, zigzag-encoded so small magnitudes of either sign take one byte.
    public mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// A flag: one byte, 0 or 1.
    public mutating func bool(_ value: Bool) {
        bytes.append(value ? 1 : 0)
    }

    /// A floating-point number: its IEEE 754 bits, little-endian, so it reads back to the same value.
    public mutating func double(_ value: Double) {
        let bits = value.bitPattern
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> shift)) }
    }

    /// Text as its UTF-8 length and bytes.
    public mutating func text(_ value: String) {
        count(value.utf8.count)
        bytes.append(contentsOf: value.utf8)
    }

    /// Bytes as their count and the bytes themselves: keys and secrets.
    public mutating func bytes(_ value: [UInt8]) {
        count(value.count)
        bytes.append(contentsOf: value)
    }

    /// A value that may be absent: a flag, then the value when present.
    public mutating func optional<Value>(_ value: Value?, _ write: (inout BinaryWriter, Value) -> Void) {
        bool(value != nil)
        if let value { write(&self, value) }
    }
}
