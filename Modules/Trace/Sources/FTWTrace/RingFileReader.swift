import FTWBus
import FTWSealInterface

/// Reads the ring file's numbers back through the shared `BinaryReader`, refusing anything out of range with a
/// ``TraceError`` instead of trapping.
package struct RingFileReader {
    private var reader: BinaryReader

    /// Reads `bytes` from the start.
    package init(_ bytes: [UInt8]) {
        reader = BinaryReader(bytes, file: "the ring file")
    }

    /// True once every byte was read.
    package var isAtEnd: Bool { reader.remaining == 0 }

    /// One byte.
    ///
    /// - Throws: `.truncated` at the end of the bytes.
    package mutating func byte() throws(TraceError) -> UInt8 {
        try traced { reader throws(SealedContentError) in try reader.byte() }
    }

    /// An unsigned LEB128 varint of at most ten bytes.
    ///
    /// - Throws: `.truncated` at the end of the bytes, `.malformed` for a varint longer than 64 bits.
    package mutating func varint() throws(TraceError) -> UInt64 {
        try traced { reader throws(SealedContentError) in try reader.varint() }
    }

    /// A zigzag-encoded signed number.
    ///
    /// - Throws: As ``varint()``.
    package mutating func signed() throws(TraceError) -> Int64 {
        try traced { reader throws(SealedContentError) in try reader.signed() }
    }

    /// A count no larger than `limit` (nor than the bytes left, as every counted thing takes a byte or more).
    ///
    /// - Throws: As ``varint()``; `.tooLarge` above `limit`, `.truncated` above the bytes left.
    package mutating func count(atMost limit: Int, of what: String) throws(TraceError) -> Int {
        try traced { reader throws(SealedContentError) in try reader.count(atMost: limit, of: what) }
    }

    /// A `.malformed` error that says where.
    package func malformed(_ what: String) -> TraceError {
        Self.traceError(reader.malformed(what))
    }

    private mutating func traced<Value>(
        _ read: (inout BinaryReader) throws(SealedContentError) -> Value
    ) throws(TraceError) -> Value {
        do {
            return try read(&reader)
        } catch {
            throw Self.traceError(error)
        }
    }

    private static func traceError(_ error: SealedContentError) -> TraceError {
        let code: TraceError.Code =
            switch error.code {
            case .truncated: .truncated
            case .tooLarge: .tooLarge
            default: .malformed
            }
        return TraceError(code, error.description, cause: error)
    }
}
