/// Why some bytes or a value could not be read as the box's wire format.
///
/// Every decoder in this module throws this one type, so a caller can log or count one kind of failure whatever
/// layer (CBOR, frame, envelope, message body) refused the input. ``code`` says what kind of failure it was, in a
/// form a program can switch on; ``message`` says it for a person, naming the field and the type that was expected;
/// ``offset`` points at the byte where byte-level decoding stopped.
public struct ProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure: an open set of named values, so adding a kind later breaks no caller's `switch`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: String, Sendable, Hashable {
            case truncated, wrongType, tooDeep, tooLong, tooManyItems, duplicateKey, trailingBytes, invalidUTF8
            case reservedValue, unexpectedBreak, notWellFormed
            case badFrame, badEnvelope, missingField, badField, notWholeMilliseconds, oversized
        }

        private let kind: Kind

        private init(_ kind: Kind) { self.kind = kind }

        /// The input ended before the item it declared (also a frame shorter than its header or its `len`).
        public static let truncated = Code(.truncated)
        /// A value had another CBOR type than the one the field needs.
        public static let wrongType = Code(.wrongType)
        /// Containers were nested deeper than ``CBORDecoder/Limits/maxDepth``.
        public static let tooDeep = Code(.tooDeep)
        /// A string or byte string declared more bytes than ``CBORDecoder/Limits/maxStringLength``.
        public static let tooLong = Code(.tooLong)
        /// The input held more items than ``CBORDecoder/Limits/maxItems``.
        public static let tooManyItems = Code(.tooManyItems)
        /// A map held the same key twice.
        public static let duplicateKey = Code(.duplicateKey)
        /// Bytes followed the one item the input should hold.
        public static let trailingBytes = Code(.trailingBytes)
        /// A text string was not valid UTF-8.
        public static let invalidUTF8 = Code(.invalidUTF8)
        /// An item used additional information 28, 29 or 30, which RFC 8949 reserves.
        public static let reservedValue = Code(.reservedValue)
        /// A "break" byte (0xff) stood where no indefinite-length item was open.
        public static let unexpectedBreak = Code(.unexpectedBreak)
        /// Bytes that RFC 8949 calls not well-formed for another reason (an indefinite integer or tag, a one-byte
        /// simple value below 32, a chunk of the wrong type inside an indefinite-length string).
        public static let notWellFormed = Code(.notWellFormed)
        /// A frame header the box would refuse (version, lane) or a frame that cannot be built (lane 0 bucket).
        public static let badFrame = Code(.badFrame)
        /// An envelope that is not a map.
        public static let badEnvelope = Code(.badEnvelope)
        /// A field the message needs was absent.
        public static let missingField = Code(.missingField)
        /// A field had the right type but a value outside its range (a negative count, an unknown resolution).
        public static let badField = Code(.badField)
        /// A time or duration in milliseconds arrived as a float; the box decodes every time as int64.
        public static let notWholeMilliseconds = Code(.notWholeMilliseconds)
        /// A payload does not fit the largest bucket of its lane.
        public static let oversized = Code(.oversized)

        /// The code's name, as in `ProtocolError.Code.truncated`.
        public var description: String { kind.rawValue }
    }

    /// What kind of failure this is.
    public var code: Code
    /// What is wrong, for a person: which field, which type was expected, what was found.
    public var message: String
    /// The byte offset where byte-level decoding failed; nil for failures in a decoded value.
    public var offset: Int?
    /// The dotted path of the field at fault (`"clock.uptimeMs"`), when the failure is about one field.
    ///
    /// A box answering a bad request names the field in its error args, so it needs it as data, not prose.
    public var field: String?

    /// Makes an error.
    ///
    /// - Parameters:
    ///   - code: The kind of failure.
    ///   - message: What is wrong, for a person.
    ///   - offset: The byte where decoding stopped, if the failure is in bytes.
    ///   - field: The field at fault, if there is one.
    public init(_ code: Code, _ message: String, offset: Int? = nil, field: String? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
        self.field = field
    }

    /// The code, the message and the offset on one line, for logs.
    public var description: String {
        if let offset { return "\(code) at byte \(offset): \(message)" }
        return "\(code): \(message)"
    }
}
