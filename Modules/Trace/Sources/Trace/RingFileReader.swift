/// Reads the ring file's numbers back, refusing anything out of range with a ``TraceError`` instead of trapping.
package struct RingFileReader {
    private let bytes: [UInt8]
    private var offset = 0

    /// Reads `bytes` from the start.
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// True once every byte was read.
    package var isAtEnd: Bool { offset == bytes.count }

    /// One byte.
    ///
    /// - Throws: `.truncated` at the end of the bytes.
    package mutating func byte() throws(TraceError) -> UInt8 {
        guard offset < bytes.count else { throw TraceError(.truncated, "the ring file ends at byte \(offset)") }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// An unsigned LEB128 varint of at most ten bytes.
    ///
    /// - Throws: `.truncated` at the end of the bytes, `.malformed` for a varint longer than 64 bits.
    package mutating func varint() throws(TraceError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while shift < 64 {
            let next = try byte()
            let bits = UInt64(next & 0x7f)
            guard shift < 63 || bits <= 1 else { throw malformed("a varint longer than 64 bits") }
            value |= bits << shift
            if next & 0x80 == 0 { return value }
            shift += 7
        }
        throw malformed("a varint longer than ten bytes")
    }

    /// A zigzag-encoded signed number.
    ///
    /// - Throws: As ``varint()``.
    package mutating func signed() throws(TraceError) -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// A count no larger than `limit`.
    ///
    /// - Throws: As ``varint()``; `.tooLarge` above `limit`.
    package mutating func count(atMost limit: Int, of what: String) throws(TraceError) -> Int {
        let raw = try varint()
        guard raw <= UInt64(max(0, limit)) else {
            throw TraceError(.tooLarge, "\(raw) \(what), more than the \(limit) this trace keeps")
        }
        return Int(raw)
    }

    /// A `.malformed` error that says where.
    package func malformed(_ what: String) -> TraceError {
        TraceError(.malformed, "\(what) at byte \(offset)")
    }
}
