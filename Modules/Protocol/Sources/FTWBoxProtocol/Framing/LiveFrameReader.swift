/// Reads the two 1 Hz messages, `delta` and `tick`, straight from a frame's payload bytes, without building the CBOR
/// tree the general path builds and then walks.
///
/// It takes only the plain shape the box sends every second: an envelope of exactly `t` and `b`, a body of `seq`,
/// `uptimeMs` and (for a delta) `fields`, definite lengths, integers, text keys. Anything else — an `id`, `sources`,
/// a float, a tag, a duplicate, an unknown key, a value out of range, a byte past the end — returns nil, and the
/// caller reads the payload the general way, which accepts or refuses it with the error that names it. So for every
/// payload this reader takes, the general path gives the same message; it never decides what is an error. The
/// bytes are read with the general decoder's own `CBORReader` (its heads, arguments and bounded spans), so the wire's
/// encoding rules are written once.
struct LiveFrameReader {
    private enum Key {
        case type, body, seq, uptimeMs, fields
    }

    /// The most field values one delta may carry on this path; a larger one takes the general path.
    private static let maxFields = 64

    private var reader: CBORReader

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        reader = CBORReader(bytes: bytes, limits: CBORDecoder.Limits())
    }

    /// The delta or tick `payload` holds, or nil when it is anything else or not in the plain shape.
    static func message(in payload: UnsafeBufferPointer<UInt8>) -> Message? {
        var reader = LiveFrameReader(bytes: payload)
        return reader.envelope()
    }

    private mutating func envelope() -> Message? {
        guard mapCount() == 2 else { return nil }
        var isDelta: Bool?
        var body: (seq: UInt64, uptimeMs: Int64, fields: [Int: Int64]?)?
        for _ in 0..<2 {
            switch key() {
            case .type?:
                guard isDelta == nil, let delta = messageType() else { return nil }
                isDelta = delta
            case .body?:
                guard body == nil, let read = self.body() else { return nil }
                body = read
            default:
                return nil
            }
        }
        guard reader.isAtEnd, let isDelta, let body else { return nil }
        guard isDelta else {
            return body.fields == nil ? .tick(Tick(seq: body.seq, uptimeMs: body.uptimeMs)) : nil
        }
        guard let fields = body.fields else { return nil }
        return .delta(Delta(seq: body.seq, uptimeMs: body.uptimeMs, fields: fields))
    }

    private mutating func body() -> (seq: UInt64, uptimeMs: Int64, fields: [Int: Int64]?)? {
        guard let count = mapCount(), count <= 3 else { return nil }
        var seq: UInt64?
        var uptimeMs: Int64?
        var fields: [Int: Int64]?
        for _ in 0..<count {
            switch key() {
            case .seq?:
                guard seq == nil, let value = unsigned() else { return nil }
                seq = value
            case .uptimeMs?:
                guard uptimeMs == nil, let value = int64() else { return nil }
                uptimeMs = value
            case .fields?:
                guard fields == nil, let values = fieldValues() else { return nil }
                fields = values
            default:
                return nil
            }
        }
        guard let seq, let uptimeMs else { return nil }
        return (seq, uptimeMs, fields)
    }

    private mutating func fieldValues() -> [Int: Int64]? {
        guard let count = mapCount(), count <= Self.maxFields else { return nil }
        var values = [Int: Int64](minimumCapacity: count)
        for _ in 0..<count {
            guard let id = fieldID(), let value = int64(), values.updateValue(value, forKey: id) == nil else {
                return nil
            }
        }
        return values
    }

    /// A field id as the general path reads it: decimal digits as text (``FieldValue/decimal(_:)``), or an unsigned
    /// integer.
    private mutating func fieldID() -> Int? {
        guard let (major, argument, start) = head() else { return nil }
        switch major {
        case 0: return Int(exactly: argument)
        case 3: return span(argument, at: start).flatMap(FieldValue.decimal)
        default: return nil
        }
    }

    /// True for `delta`, false for `tick`, nil for any other type.
    private mutating func messageType() -> Bool? {
        guard let text = text() else { return nil }
        if Self.equal(text, Self.deltaType) { return true }
        if Self.equal(text, Self.tickType) { return false }
        return nil
    }

    private mutating func key() -> Key? {
        guard let text = text() else { return nil }
        switch text.count {
        case 1:
            if text[0] == UInt8(ascii: "t") { return .type }
            if text[0] == UInt8(ascii: "b") { return .body }
        case 3 where Self.equal(text, "seq"): return .seq
        case 6 where Self.equal(text, "fields"): return .fields
        case 8 where Self.equal(text, "uptimeMs"): return .uptimeMs
        default: break
        }
        return nil
    }

    /// ``Delta/wireType`` and ``Tick/wireType`` as static text: comparing bytes with a `String`'s UTF-8 view walks
    /// it as a generic sequence (about 1 k instructions a frame for the five keys and the type).
    private static let deltaType: StaticString = "delta"
    private static let tickType: StaticString = "tick"

    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        bytes.elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }

    private mutating func text() -> UnsafeBufferPointer<UInt8>? {
        guard let (major, argument, start) = head(), major == 3, argument <= 32 else { return nil }
        return span(argument, at: start)
    }

    private mutating func mapCount() -> Int? {
        guard let (major, argument, _) = head(), major == 5, argument <= UInt64(Self.maxFields) else { return nil }
        return Int(argument)
    }

    private mutating func unsigned() -> UInt64? {
        guard let (major, argument, _) = head(), major == 0 else { return nil }
        return argument
    }

    /// An integer as the general path reads it (``CBOR/int64``): nil for any other item or one past `Int64`.
    private mutating func int64() -> Int64? {
        switch head() {
        case (0, let argument, _)?: CBOR.unsigned(argument).int64
        case (1, let argument, _)?: CBOR.negative(argument).int64
        default: nil
        }
    }

    /// One item's major type and argument, and where it starts; nil for an indefinite length, a simple value or
    /// float, a reserved encoding, or too few bytes.
    private mutating func head() -> (major: UInt8, argument: UInt64, start: Int)? {
        let start = reader.offset
        guard let initial = try? reader.readByte() else { return nil }
        let major = initial >> 5
        let info = initial & 0x1f
        guard major != 7, info != 31, let argument = try? reader.readArgument(info: info, at: start) else {
            return nil
        }
        return (major, argument, start)
    }

    private mutating func span(_ count: UInt64, at start: Int) -> UnsafeBufferPointer<UInt8>? {
        try? reader.readSpan(count: count, at: start)
    }
}
