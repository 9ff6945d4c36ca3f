/// Reads a sealed file's contents back field by field, refusing anything out of range with a
/// ``SealedContentError`` that names the file, never trapping: every count and length is checked against the bytes
/// left and a limit before anything is allocated.
public struct BinaryReader {
    /// The longest text any model file holds: the status and prefs documents as the box sent them.
    public static let textLimit = 1 << 20

    /// The file being read, as its errors name it.
    public var file: String { name?.fileName ?? label }

    // A sealed file's name is spelled out only when an error names it: building the string costs more than most of
    // a small model's fields.
    @usableFromInline let name: SealedFileName?
    @usableFromInline let label: String
    @usableFromInline let bytes: [UInt8]
    @usableFromInline var offset: Int
    /// The last text read and where its bytes start: a list of slots repeats its texts (a plan's reasons), and the
    /// same bytes again are the same string, shared rather than validated and allocated once more.
    @usableFromInline var lastText: (start: Int, text: String)?

    /// Reads `bytes`, the contents of `file`, from `offset`.
    @inlinable
    public init(_ bytes: [UInt8], file: String, offset: Int = 0) {
        self.bytes = bytes
        name = nil
        label = file
        self.offset = offset
        lastText = nil
    }

    /// Reads `bytes`, the contents of the sealed file `name`, from `offset`.
    @inlinable
    public init(_ bytes: [UInt8], name: SealedFileName, offset: Int = 0) {
        self.bytes = bytes
        self.name = name
        label = ""
        self.offset = offset
        lastText = nil
    }

    /// The bytes not read yet.
    @inlinable
    public var remaining: Int { bytes.count - offset }

    /// One byte.
    ///
    /// - Throws: `.truncated` at the end of the bytes.
    @inlinable
    public mutating func byte() throws(SealedContentError) -> UInt8 {
        guard offset < bytes.count else { throw failure(.truncated, "it ends at byte \(offset), inside a field") }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// An unsigned LEB128 varint of at most ten bytes.
    ///
    /// - Throws: `.truncated` at the end of the bytes, `.malformed` for a varint longer than 64 bits.
    @inlinable @inline(__always)
    public mutating func varint() throws(SealedContentError) -> UInt64 {
        // Most fields (counts, flags' neighbours, small deltas) fit one byte: read those in place.
        if offset < bytes.count, bytes[offset] < 0x80 {
            defer { offset += 1 }
            return UInt64(bytes[offset])
        }
        return try longVarint()
    }

    /// ``varint()`` past its one-byte case.
    @usableFromInline
    mutating func longVarint() throws(SealedContentError) -> UInt64 {
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
    @inlinable
    public mutating func signed() throws(SealedContentError) -> Int64 {
        let raw = try varint()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// A signed number that fits `Int`.
    ///
    /// - Throws: As ``varint()``; `.malformed` when it does not fit.
    @inlinable
    public mutating func int() throws(SealedContentError) -> Int {
        let value = try signed()
        guard let int = Int(exactly: value) else { throw malformed("\(value) does not fit a machine integer") }
        return int
    }

    /// A count of things each written in at least one byte: no larger than `limit` nor than the bytes left.
    ///
    /// - Throws: As ``varint()``; `.tooLarge` above `limit`, `.truncated` above the bytes left.
    @inlinable
    public mutating func count(atMost limit: Int, of what: String) throws(SealedContentError) -> Int {
        let raw = try varint()
        guard raw <= UInt64(max(0, limit)) else {
            throw failure(.tooLarge, "\(raw) \(what), more than the \(limit) any such file holds")
        }
        guard raw <= UInt64(remaining) else {
            throw failure(.truncated, "\(raw) \(what) in the \(remaining) bytes left at byte \(offset)")
        }
        return Int(raw)
    }

    /// A flag written as 0 or 1.
    ///
    /// - Throws: As ``byte()``; `.malformed` for any other byte.
    @inlinable
    public mutating func bool() throws(SealedContentError) -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        case let other: throw malformed("a flag of \(other)")
        }
    }

    /// A floating-point number from its eight little-endian bytes.
    ///
    /// - Throws: `.truncated` when fewer than eight bytes are left.
    @inlinable
    public mutating func double() throws(SealedContentError) -> Double {
        guard remaining >= 8 else { throw failure(.truncated, "8 bytes of a number wanted, \(remaining) left") }
        var bits: UInt64 = 0
        for index in 0..<8 { bits |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        offset += 8
        return Double(bitPattern: bits)
    }

    /// UTF-8 text of at most `limit` bytes.
    ///
    /// - Throws: As ``count(atMost:of:)``; `.malformed` when the bytes are not UTF-8.
    @inlinable
    public mutating func text(atMost limit: Int = textLimit) throws(SealedContentError) -> String {
        let length = try count(atMost: limit, of: "bytes of text")
        let start = offset
        offset += length
        // A text equal to the last is the last's string, which stays the last.
        if let last = lastText, last.text.utf8.count == length,
            bytes.withUnsafeBytes({ all in
                Self.same(
                    UnsafeRawBufferPointer(rebasing: all[last.start..<last.start + length]),
                    UnsafeRawBufferPointer(rebasing: all[start..<start + length])
                )
            })
        {
            return last.text
        }
        let text = bytes.withUnsafeBufferPointer { all -> String? in
            let utf8 = UnsafeBufferPointer(rebasing: all[start..<start + length])
            // ASCII is valid UTF-8 and decodes without repair; `String(validating:)` is generic code that looks up
            // type metadata at run time, about 1.4 k instructions a text, so it is left for the rest.
            return Self.isASCII(UnsafeRawBufferPointer(utf8))
                ? String(decoding: utf8, as: UTF8.self) : String(validating: utf8, as: UTF8.self)
        }
        guard let text else { throw malformed("text at byte \(start) that is not UTF-8") }
        lastText = (start, text)
        return text
    }

    /// Whether every byte is below 0x80, eight at a time: a text's bytes are checked once before decoding, and a
    /// byte-wise loop cost more than the decoding.
    @inlinable
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var high: UInt64 = 0
        var index = 0
        while index + 8 <= bytes.count {
            high |= bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < bytes.count {
            high |= UInt64(bytes[index])
            index += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// Whether `a` and `b` (of the same length) hold the same bytes, compared eight at a time.
    @inlinable
    static func same(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        while index + 8 <= a.count {
            guard
                a.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    == b.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            else { return false }
            index += 8
        }
        while index < a.count {
            guard a[index] == b[index] else { return false }
            index += 1
        }
        return true
    }

    /// Bytes written by ``BinaryWriter/bytes(_:)``, at most `limit` of them.
    ///
    /// - Throws: As ``count(atMost:of:)``.
    @inlinable
    public mutating func bytes(atMost limit: Int) throws(SealedContentError) -> [UInt8] {
        let length = try count(atMost: limit, of: "bytes")
        defer { offset += length }
        return Array(bytes[offset..<offset + length])
    }

    /// A value that may be absent, written by ``BinaryWriter/optional(_:_:)``.
    ///
    /// - Throws: As ``bool()``, or what `read` throws.
    @inlinable
    public mutating func optional<Value>(
        _ read: (inout BinaryReader) throws(SealedContentError) -> Value
    ) throws(SealedContentError) -> Value? {
        try bool() ? try read(&self) : nil
    }

    /// Checks that every byte was read.
    ///
    /// - Throws: `.malformed` when bytes are left over.
    @inlinable
    public func finish() throws(SealedContentError) {
        guard remaining == 0 else { throw malformed("\(remaining) bytes left over after the last field") }
    }

    /// A `.malformed` error that says where.
    public func malformed(_ what: String) -> SealedContentError {
        failure(.malformed, "\(what) at byte \(offset)")
    }

    /// An error about this file.
    public func failure(_ code: SealedContentError.Code, _ message: String) -> SealedContentError {
        SealedContentError(code, file: file, message)
    }
}
