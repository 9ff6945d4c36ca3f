/// Why a model's sealed file opened but could not be read back: the contents are not in the layout this build reads.
///
/// Such a file is proven bad (it fails the same way on every launch): the store drops it and reports
/// ``SealEvent/unreadable(file:error:)``, and its model starts empty and asks the box again.
public struct SealedContentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is; extensible without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case olderFormat, badMagic, unknownVersion, newerFormat, truncated, malformed, tooLarge
        }

        private let value: Value

        /// The file is JSON, as builds before the binary layout wrote it.
        public static let olderFormat = Code(value: .olderFormat)
        /// The file starts with neither the magic nor JSON.
        public static let badMagic = Code(value: .badMagic)
        /// The file is in a layout version this build does not know (a newer build wrote it).
        public static let unknownVersion = Code(value: .unknownVersion)
        /// The file is in a layout version above the one this build writes: a newer build wrote it. The store keeps
        /// it as it is and never writes over it, so going back to that build finds it.
        public static let newerFormat = Code(value: .newerFormat)
        /// The contents end before their fields do, or a count promises more than the bytes left.
        public static let truncated = Code(value: .truncated)
        /// A field is out of its range: an overlong varint, a flag other than 0 or 1, text that is not UTF-8, slots
        /// out of order, a key twice, bytes left over.
        public static let malformed = Code(value: .malformed)
        /// A count or length passes what any such file holds.
        public static let tooLarge = Code(value: .tooLarge)

        /// The code's name.
        public var description: String { value.rawValue }
    }

    /// What kind of failure this is.
    public var code: Code
    /// The file, as named on disk (`prices-<site>`).
    public var file: String
    /// What is wrong, in words.
    public var message: String

    /// Makes an error about `file`.
    public init(_ code: Code, file: String, _ message: String) {
        self.code = code
        self.file = file
        self.message = message
    }

    /// A file `file` in layout `version`, above `current`, the newest this build reads: a newer build wrote it.
    public static func newer(file: String, version: UInt8, current: UInt8) -> SealedContentError {
        SealedContentError(
            .newerFormat,
            file: file,
            "\(file) was written by a newer build, in format \(version) (this build reads format \(current) and"
                + " older); it is kept for that build, and its model starts empty"
        )
    }

    /// The file and what is wrong with it, in one line.
    public var description: String { "\(file): \(message)" }
}
