import Foundation

/// `rotation-vectors.json`: the hour's turn (protocol.md §8.3), computed from the relay's own formula. Each case
/// names a secret and an hour, the handles of that hour and the one before, and when the relay moves the room still
/// on the old handle, in ms after the hour.
public struct RotationVectors: Sendable, Hashable, Decodable {
    /// One secret and hour.
    public struct Case: Sendable, Hashable, Decodable {
        /// The rendezvous secret, hex.
        public var rendezvousSecretHex: String
        /// The hour the relay turns to.
        public var epoch: Int64
        /// That hour's start, Unix ms.
        public var hourStartMs: Int64
        /// That hour's handle.
        public var handle: String
        /// The hour before's handle: the room the relay moves.
        public var previousHandle: String
        /// When the relay moves it, in ms after ``hourStartMs``.
        public var boxMovedAtMsAfterHour: Int64

        /// The secret's bytes.
        ///
        /// - Throws: `CocoaError(.fileReadCorruptFile)` when the hex does not read.
        public func secret() throws -> [UInt8] {
            guard let bytes = Vectors.bytes(hex: rendezvousSecretHex) else { throw CocoaError(.fileReadCorruptFile) }
            return bytes
        }
    }

    /// The relay's spread of the hour's turn, ms.
    public var spreadMs: Int64
    /// The cases.
    public var vectors: [Case]

    /// Reads the file from `Vectors/`.
    ///
    /// - Throws: The file system's or the decoder's error.
    public static func load() throws -> RotationVectors {
        try JSONDecoder().decode(RotationVectors.self, from: Vectors.data("rotation-vectors.json"))
    }
}
