/// Writes the fields of a sealed file's contents in the compact layout every model file shares: LEB128 varints for
/// counts and unsigned numbers, zigzag varints for signed ones, length-prefixed UTF-8 for text.
///
/// Hand-written per type (``SealedCodable``) instead of `Codable`: a cold start decodes these files before it
/// draws, and the encoder's keyed containers cost hundreds of instructions a byte where this costs tens.
public struct BinaryWriter: Sendable {
    /// What was written so far.
    @inlinable public var bytes: [UInt8] { written }

    /// How many bytes were written so far.
    @inlinable public var count: Int { written.count }

    // Visible to inlined code, so a file's encoder writes each field in place rather than through a call.
    @usableFromInline var written: [UInt8] = []

    /// Writes after `bytes`, in their buffer when nothing else holds it.
    @inlinable
    public init(appendingTo bytes: [UInt8]) {
        written = bytes
    }

    /// Reserves room for about `count` bytes, so a whole file is written into one buffer.
    @inlinable
    public init(reservingCapacity count: Int) {
        written.reserveCapacity(count)
    }

    /// One byte.
    @inlinable
    public mutating func byte(_ value: UInt8) {
        written.append(value)
    }

    /// Bytes as they are, such as a magic.
    @inlinable
    public mutating func raw(_ value: [UInt8]) {
        written.append(contentsOf: value)
    }

    /// A stretch of bytes as they are: part of an earlier write copied into this one.
    @inlinable
    public mutating func raw(_ value: ArraySlice<UInt8>) {
        written.append(contentsOf: value)
    }

    /// An unsigned LEB128 varint: 7 bits a byte, high bit set on every byte but the last.
    @inlinable
    public mutating func varint(_ value: UInt64) {
        Self.leb128(value) { written.append($0) }
    }

    /// Hands `value`'s varint bytes to `emit` in order: the one place the layout is written down.
    @inlinable @inline(__always)
    static func leb128(_ value: UInt64, _ emit: (UInt8) -> Void) {
        var rest = value
        while rest >= 0x80 {
            emit(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        emit(UInt8(truncatingIfNeeded: rest))
    }

    /// Writes a run of numbers in one go: `body` writes at most `numbers` of them into a ``Batch``, whose bytes are
    /// then appended at once, so a long run (a ring's new points) costs one append rather than one per byte.
    @inlinable
    public mutating func batch(of numbers: Int, _ body: (inout Batch) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, numbers) * Batch.varintLimit) { room in
            var batch = Batch(room)
            body(&batch)
            written.append(contentsOf: UnsafeBufferPointer(rebasing: room[..<batch.count]))
        }
    }

    /// Numbers written into room set aside by ``batch(of:_:)``.
    public struct Batch {
        /// The most bytes a varint of 64 bits takes.
        public static let varintLimit = 10

        @usableFromInline let room: UnsafeMutableBufferPointer<UInt8>
        /// The bytes written into the batch so far.
        @inlinable public var count: Int { written }

        @usableFromInline var written = 0

        @inlinable init(_ room: UnsafeMutableBufferPointer<UInt8>) {
            self.room = room
        }

        /// An unsigned LEB128 varint: 7 bits a byte, high bit set on every byte but the last.
        @inlinable
        public mutating func varint(_ value: UInt64) {
            BinaryWriter.leb128(value) { byte in
                room[written] = byte
                written += 1
            }
        }

        /// A signed number, zigzag-encoded so small magnitudes of either sign take one byte.
        @inlinable
        public mutating func signed(_ value: Int64) {
            varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
        }
    }

    /// A count or length.
    @inlinable
    public mutating func count(_ value: Int) {
        varint(UInt64(max(0, value)))
    }

    /// A signed number, zigzag-encoded so small magnitudes of either sign take one byte.
    @inlinable
    public mutating func signed(_ value: Int64) {
        varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// A flag: one byte, 0 or 1.
    @inlinable
    public mutating func bool(_ value: Bool) {
        written.append(value ? 1 : 0)
    }

    /// A floating-point number: its IEEE 754 bits, little-endian, so it reads back to the same value.
    @inlinable
    public mutating func double(_ value: Double) {
        let bits = value.bitPattern
        for shift in stride(from: 0, to: 64, by: 8) { written.append(UInt8(truncatingIfNeeded: bits >> shift)) }
    }

    /// Text as its UTF-8 length and bytes.
    @inlinable
    public mutating func text(_ value: String) {
        count(value.utf8.count)
        written.append(contentsOf: value.utf8)
    }

    /// Bytes as their count and the bytes themselves: keys and secrets.
    @inlinable
    public mutating func bytes(_ value: [UInt8]) {
        count(value.count)
        written.append(contentsOf: value)
    }

    /// A value that may be absent: a flag, then the value when present.
    @inlinable
    public mutating func optional<Value>(_ value: Value?, _ write: (inout BinaryWriter, Value) -> Void) {
        bool(value != nil)
        if let value { write(&self, value) }
    }
}
