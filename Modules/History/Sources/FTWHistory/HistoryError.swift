public import FTWBus

/// Why a tile or the sealed tiles file was refused: the one error type of the History module.
///
/// A refused tile is never drawn and never offered as held; a refused file reads as empty. The code says which, so a
/// log tells a box that sent a bad tile from a file this build cannot read.
///
/// Its `message` is a sentence for logs, which says the cause, when there is one, in words.
public struct HistoryError: FTWStoredError {
    /// What kind of failure this is; extensible without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case etagMismatch, unexpectedTile, badTileData, unreadableFile
        }

        private let value: Value

        /// A tile's etag is not the FNV-1a of its data: the data is not what the box meant to send.
        public static let etagMismatch = Code(value: .etagMismatch)
        /// A tile the query did not plan, or one whose start, step, resolution or series differ from the plan.
        public static let unexpectedTile = Code(value: .unexpectedTile)
        /// A tile's data is not one int32 column of the planned points per series.
        public static let badTileData = Code(value: .badTileData)
        /// The tiles file opened but is not a tiles file this build reads (another format version, other series,
        /// bytes cut short); it reads as empty.
        public static let unreadableFile = Code(value: .unreadableFile)

        /// The code's name.
        public var description: String { value.rawValue }
    }

    /// The code, the message and the cause, in the one storage every coded error shares.
    public var fields: FTWErrorFields<Code>
    /// The tile concerned, when one is.
    public var tileId: String?

    /// Makes an error of these fields, about no tile; ``/FTWBus/FTWStoredError/init(_:_:cause:)`` is the one callers
    /// write.
    public init(fields: FTWErrorFields<Code>) { self.fields = fields }

    /// Makes an error about the tile `tileId`: the initialiser of the shape, with the one field this type adds.
    public init(_ code: Code, _ message: String, tileId: String?, cause: (any Error)? = nil) {
        self.init(fields: FTWErrorFields(code, message, cause: cause))
        self.tileId = tileId
    }

    /// The code, the tile and the message.
    public var description: String { "\(code)\(tileId.map { " \($0)" } ?? ""): \(message)" }

    /// Equal when everything but the cause is: the cause is for looking at, not for deciding.
    public static func == (lhs: HistoryError, rhs: HistoryError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.tileId == rhs.tileId
    }

    /// Hashes what equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(tileId)
    }
}
