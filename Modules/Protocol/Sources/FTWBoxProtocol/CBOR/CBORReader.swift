/// The cursor behind ``CBORDecoder``: reads one item at a time, checking every length before it trusts it.
///
/// It reads the caller's buffer in place (``CBORDecoder/decode(_:)`` lends it for the one call), so a byte costs a
/// load and a comparison with the end, and only the values the result keeps are allocated.
struct CBORReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let limits: CBORDecoder.Limits
    /// The next byte to read.
    private(set) var offset = 0
    private var items = 0

    /// A reader of `bytes`, which must stay valid while it reads.
    init(bytes: UnsafeBufferPointer<UInt8>, limits: CBORDecoder.Limits) {
        self.bytes = bytes
        self.limits = limits
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { offset == bytes.count }

    private var remaining: Int { bytes.count - offset }

    /// The string limit as a count to compare declared lengths with (a negative limit allows nothing).
    private var maxStringBytes: UInt64 { UInt64(max(0, limits.maxStringLength)) }

    /// Reads one item whose enclosing containers number `depth`.
    mutating func readItem(depth: Int) throws(ProtocolError) -> CBOR {
        let start = offset
        let initial = try readByte()
        try countItem(at: start)
        let major = initial >> 5
        let info = initial & 0x1f
        if major == 7 { return try readSimpleOrFloat(info: info, at: start) }
        if info == 31 { return try readIndefinite(major: major, depth: depth, at: start) }
        let argument = try readArgument(info: info, at: start)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(Array(try readSpan(count: argument, at: start)))
        case 3: return .text(try Self.text(try readSpan(count: argument, at: start), at: start))
        case 4: return .array(try readArray(count: argument, depth: try enter(depth, at: start), at: start))
        case 5: return .map(try readMap(count: argument, depth: try enter(depth, at: start), at: start))
        default: return .tagged(argument, try readItem(depth: try enter(depth, at: start)))
        }
    }

    mutating func readByte() throws(ProtocolError) -> UInt8 {
        guard offset < bytes.count else {
            throw ProtocolError(.truncated, "the input ends where another byte was needed", offset: offset)
        }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func readBigEndian(byteCount: Int, at start: Int) throws(ProtocolError) -> UInt64 {
        guard byteCount <= remaining else {
            throw ProtocolError(.truncated, "the item's \(byteCount)-byte argument is cut off", offset: start)
        }
        var value: UInt64 = 0
        for index in offset..<offset + byteCount { value = value << 8 | UInt64(bytes[index]) }
        offset += byteCount
        return value
    }

    mutating func readArgument(info: UInt8, at start: Int) throws(ProtocolError) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24: return try readBigEndian(byteCount: 1, at: start)
        case 25: return try readBigEndian(byteCount: 2, at: start)
        case 26: return try readBigEndian(byteCount: 4, at: start)
        case 27: return try readBigEndian(byteCount: 8, at: start)
        default:
            throw ProtocolError(.reservedValue, "additional information \(info) is reserved", offset: start)
        }
    }

    private mutating func countItem(at start: Int) throws(ProtocolError) {
        items += 1
        guard items <= limits.maxItems else {
            throw ProtocolError(.tooManyItems, "more than \(limits.maxItems) items", offset: start)
        }
    }

    /// The depth of a container's children, once it is known to be within the limit.
    private func enter(_ depth: Int, at start: Int) throws(ProtocolError) -> Int {
        guard depth < limits.maxDepth else {
            throw ProtocolError(.tooDeep, "containers nested deeper than \(limits.maxDepth)", offset: start)
        }
        return depth + 1
    }

    /// The next `count` bytes, in place, once the limits and the input allow them.
    mutating func readSpan(count: UInt64, at start: Int) throws(ProtocolError) -> UnsafeBufferPointer<UInt8> {
        guard count <= maxStringBytes else {
            throw ProtocolError(
                .tooLong,
                "a string declares \(count) bytes, more than the limit of \(limits.maxStringLength)",
                offset: start
            )
        }
        guard count <= UInt64(remaining) else {
            throw ProtocolError(
                .truncated,
                "a string declares \(count) bytes but only \(remaining) remain",
                offset: start
            )
        }
        let end = offset + Int(count)
        defer { offset = end }
        return UnsafeBufferPointer(rebasing: bytes[offset..<end])
    }

    /// `utf8` as a string when it is valid UTF-8. ASCII, which nearly every protocol string is, needs no decoding
    /// tables: it is checked eight bytes at a time and taken as it is.
    private static func text(_ utf8: UnsafeBufferPointer<UInt8>, at start: Int) throws(ProtocolError) -> String {
        if isASCII(utf8) { return String(decoding: utf8, as: UTF8.self) }
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw ProtocolError(.invalidUTF8, "a text string is not valid UTF-8", offset: start)
        }
        return text
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        var index = 0
        var bits: UInt64 = 0
        while index + 8 <= raw.count {
            bits |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < raw.count {
            bits |= UInt64(raw[index])
            index += 1
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }

    private mutating func readArray(count: UInt64, depth: Int, at start: Int) throws(ProtocolError) -> [CBOR] {
        guard count <= UInt64(remaining) else {
            throw ProtocolError(
                .truncated,
                "an array declares \(count) items but only \(remaining) bytes remain",
                offset: start
            )
        }
        var array: [CBOR] = []
        array.reserveCapacity(Int(count))
        for _ in 0..<count { array.append(try readItem(depth: depth)) }
        return array
    }

    private mutating func readMap(count: UInt64, depth: Int, at start: Int) throws(ProtocolError) -> CBORMap {
        guard count <= UInt64(remaining / 2) else {
            throw ProtocolError(
                .truncated,
                "a map declares \(count) entries but only \(remaining) bytes remain",
                offset: start
            )
        }
        var builder = MapBuilder(capacity: Int(count))
        for _ in 0..<count {
            let keyStart = offset
            let key = try readItem(depth: depth)
            try builder.add(key, try readItem(depth: depth), at: keyStart)
        }
        return builder.map
    }

    /// Consumes a break byte if one comes next.
    private mutating func consumeBreak() throws(ProtocolError) -> Bool {
        guard offset < bytes.count else {
            throw ProtocolError(.truncated, "an indefinite-length item has no break", offset: offset)
        }
        guard bytes[offset] == 0xff else { return false }
        offset += 1
        return true
    }

    private mutating func readIndefinite(major: UInt8, depth: Int, at start: Int) throws(ProtocolError) -> CBOR {
        switch major {
        case 2: return .bytes(try readChunks(major: 2, at: start))
        case 3:
            let joined = try readChunks(major: 3, at: start)
            return .text(
                try joined.withUnsafeBufferPointer { utf8 throws(ProtocolError) in try Self.text(utf8, at: start) }
            )
        case 4:
            let childDepth = try enter(depth, at: start)
            var array: [CBOR] = []
            while try !consumeBreak() { array.append(try readItem(depth: childDepth)) }
            return .array(array)
        case 5:
            let childDepth = try enter(depth, at: start)
            var builder = MapBuilder(capacity: 0)
            while try !consumeBreak() {
                let keyStart = offset
                let key = try readItem(depth: childDepth)
                try builder.add(key, try readItem(depth: childDepth), at: keyStart)
            }
            return .map(builder.map)
        default:
            throw ProtocolError(.notWellFormed, "major type \(major) cannot have an indefinite length", offset: start)
        }
    }

    /// The joined chunks of an indefinite-length string; each chunk must be a definite string of the same major
    /// type, and each text chunk valid UTF-8 on its own.
    private mutating func readChunks(major: UInt8, at start: Int) throws(ProtocolError) -> [UInt8] {
        var joined: [UInt8] = []
        while try !consumeBreak() {
            let chunkStart = offset
            let initial = try readByte()
            guard initial >> 5 == major, initial & 0x1f != 31 else {
                throw ProtocolError(
                    .notWellFormed,
                    "a chunk of an indefinite-length string must be a definite string of major type \(major)",
                    offset: chunkStart
                )
            }
            let count = try readArgument(info: initial & 0x1f, at: chunkStart)
            guard count <= maxStringBytes - UInt64(joined.count) else {
                throw ProtocolError(
                    .tooLong,
                    "an indefinite-length string grows past the limit of \(limits.maxStringLength) bytes",
                    offset: chunkStart
                )
            }
            let chunk = try readSpan(count: count, at: chunkStart)
            if major == 3 { _ = try Self.text(chunk, at: chunkStart) }
            joined.append(contentsOf: chunk)
        }
        return joined
    }

    private mutating func readSimpleOrFloat(info: UInt8, at start: Int) throws(ProtocolError) -> CBOR {
        switch info {
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 23: return .undefined
        case 24:
            let number = try readByte()
            guard number >= 32 else {
                throw ProtocolError(
                    .notWellFormed,
                    "simple value \(number) must be written in one byte",
                    offset: start
                )
            }
            return .simple(number)
        case 25: return Self.float(HalfFloat.value(of: UInt16(try readBigEndian(byteCount: 2, at: start))))
        case 26: return Self.float(Double(Float(bitPattern: UInt32(try readBigEndian(byteCount: 4, at: start)))))
        case 27: return Self.float(Double(bitPattern: try readBigEndian(byteCount: 8, at: start)))
        case 31: throw ProtocolError(.unexpectedBreak, "a break byte where no indefinite item is open", offset: start)
        case 28...30: throw ProtocolError(.reservedValue, "additional information \(info) is reserved", offset: start)
        default: return .simple(info)
        }
    }
}

extension CBORReader {
    /// Every NaN reads as the one NaN the encoder writes (`f97e00`), whatever its payload bits.
    ///
    /// Otherwise a map keyed by two NaNs that differ only in payload would decode (the keys differ bit for bit) but
    /// not survive being written again (both keys become `f97e00`, a duplicate); `fuzz-cbor` found exactly that.
    static func float(_ value: Double) -> CBOR {
        .float(value.isNaN ? .nan : value)
    }
}

/// Collects a decoded map's entries, refusing a key it has already seen.
///
/// A small map (every map the protocol sends) is checked by comparing the new key with the ones before it, which
/// costs less than hashing; past ``linearLimit`` entries the keys go into a set, so a large map stays linear.
private struct MapBuilder {
    private static let linearLimit = 16

    private(set) var map = CBORMap()
    private var keys: Set<CBOR> = []

    init(capacity: Int) {
        map.entries.reserveCapacity(capacity)
    }

    mutating func add(_ key: CBOR, _ value: CBOR, at keyStart: Int) throws(ProtocolError) {
        guard isNew(key) else {
            throw ProtocolError(
                .duplicateKey,
                "the map holds the key \(key.diagnostic.prefix(80)) twice",
                offset: keyStart
            )
        }
        map.entries.append(CBORMap.Entry(key: key, value: value))
    }

    private mutating func isNew(_ key: CBOR) -> Bool {
        let count = map.entries.count
        if count < Self.linearLimit {
            guard case .text(let text) = key else { return !map.entries.contains { $0.key == key } }
            return map.firstIndex(ofText: text) == nil
        }
        if count == Self.linearLimit { keys = Set(map.entries.lazy.map(\.key)) }
        return keys.insert(key).inserted
    }
}
