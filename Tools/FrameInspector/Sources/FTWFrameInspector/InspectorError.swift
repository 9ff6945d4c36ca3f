public import FTWBoxProtocol

/// Why the frame inspector could not do what it was asked: bad input text, or bytes or a message the protocol
/// refuses (then ``protocolError`` is the decoder's own error and ``offset`` the byte of the whole input).
public struct InspectorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure; an open set, like every error code in the project.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String

        /// The command line was not understood.
        public static let usage = Code(name: "usage")
        /// The input was not hex.
        public static let badHex = Code(name: "badHex")
        /// The input was not JSON.
        public static let badJSON = Code(name: "badJSON")
        /// The JSON does not map to CBOR (a number out of range, a malformed `$bytes`).
        public static let badValue = Code(name: "badValue")
        /// The protocol's decoder or encoder refused the bytes or the message.
        public static let refused = Code(name: "refused")

        /// The code's name.
        public var description: String { name }
    }

    /// What kind of failure this is.
    public var code: Code
    /// What is wrong, for a person.
    public var message: String
    /// The protocol's error, when the protocol refused.
    public var protocolError: ProtocolError?
    /// The byte of the whole input where decoding failed (a frame's header counts), when known.
    public var offset: Int?

    /// Makes an error.
    public init(_ code: Code, _ message: String, protocolError: ProtocolError? = nil, offset: Int? = nil) {
        self.code = code
        self.message = message
        self.protocolError = protocolError
        self.offset = offset
    }

    /// The protocol's refusal of the bytes of a whole input, whose layer started `layerStart` bytes in.
    init(refusal error: ProtocolError, layerStart: Int) {
        let offset = error.offset.map { $0 + layerStart }
        let field = error.field.map { " (field \($0))" } ?? ""
        let place = offset.map { " at byte \($0)" } ?? ""
        self.init(.refused, "\(error.code)\(place): \(error.message)\(field)", protocolError: error, offset: offset)
    }

    /// The code and the message.
    public var description: String { "\(code): \(message)" }
}
