/// Reads bytes as exactly one CBOR value, refusing anything RFC 8949 calls not well-formed and anything a peer
/// could use to make this side spend memory or time it did not mean to.
///
/// Accepts every major type, definite and indefinite lengths, half/single/double floats, tags and simple values.
/// Refuses: trailing bytes, duplicate map keys, invalid UTF-8, reserved additional information (28-30), a break
/// where none is open, indefinite-length strings whose chunks are not definite strings of the same type, and
/// inputs past ``Limits``. A declared length is checked against the limits and against the bytes that remain
/// before anything is allocated, so a header claiming 2^63 bytes costs nothing. It never traps.
public struct CBORDecoder: Sendable {
    /// How much one input may make the decoder do.
    ///
    /// A frame payload is at most 65535 bytes, so real messages never come near the defaults.
    public struct Limits: Sendable, Hashable {
        /// How many arrays, maps and tags may be nested inside one another.
        public var maxDepth: Int
        /// How many items (each map entry counts its key and its value) one input may hold.
        public var maxItems: Int
        /// How many bytes one string or byte string may hold (for indefinite strings, all chunks together).
        public var maxStringLength: Int

        /// Makes limits.
        ///
        /// - Parameters:
        ///   - maxDepth: How many containers may be nested; keep it small, as decoding recurses once per level.
        ///   - maxItems: How many items one input may hold.
        ///   - maxStringLength: How many bytes one string may hold.
        public init(maxDepth: Int = 32, maxItems: Int = 65_536, maxStringLength: Int = 65_536) {
            self.maxDepth = maxDepth
            self.maxItems = maxItems
            self.maxStringLength = maxStringLength
        }
    }

    /// The limits this decoder enforces.
    public var limits: Limits

    /// Makes a decoder.
    ///
    /// - Parameter limits: The limits it enforces.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// The one value `bytes` holds.
    ///
    /// - Throws: ``ProtocolError`` with the offset of the byte where decoding failed; `.trailingBytes` when bytes
    ///   follow the value.
    public func decode(_ bytes: [UInt8]) throws(ProtocolError) -> CBOR {
        try bytes.withUnsafeBufferPointer { buffer throws(ProtocolError) in
            var reader = CBORReader(bytes: buffer, limits: limits)
            let value = try reader.readItem(depth: 0)
            guard reader.isAtEnd else {
                throw ProtocolError(
                    .trailingBytes,
                    "\(bytes.count - reader.offset) bytes follow the CBOR value",
                    offset: reader.offset
                )
            }
            return value
        }
    }
}
