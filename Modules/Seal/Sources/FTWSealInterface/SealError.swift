public import FTWBus

/// Why a sealed file could not be written, read or erased: the one error type of the Seal module.
///
/// The codes double as the reason of `SealEvent.dropped`, so a log says why a model started empty.
///
/// Its `message` says what happened in the words a person reads (the pairing commands print it as it is); its `cause`
/// is the lower layer's error it stands for (the cipher's, the file system's).
public struct SealError: FTWStoredError {
    /// What kind of failure this is; extensible without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: Sendable, Hashable {
            case authenticationFailed, truncated, badMagic, unknownVersion, wrongKind, wrongSite
            case notRegularFile, tooLarge, io
            case keyUnavailable, keyMissing, keyMalformed, keyExposed, keyMismatch, invalidName
            case folderInUse, newerFormat
        }

        private let value: Value

        /// The tag did not match under the key the folder's files were sealed with: a byte of the nonce, ciphertext
        /// or tag changed, or the file was renamed to another model's name. Proven damaged, so it is dropped.
        ///
        /// AES-GCM alone cannot tell this from a wrong key (both fail the same check); the store can, because the
        /// folder records which key sealed its files (``keyMismatch``).
        public static let authenticationFailed = Code(value: .authenticationFailed)
        /// A changed byte: the same code as ``authenticationFailed``.
        public static let tampered = authenticationFailed
        /// The file is too short to hold a header, a nonce and a tag.
        public static let truncated = Code(value: .truncated)
        /// The file does not start with the seal's magic bytes: it is not a sealed file.
        public static let badMagic = Code(value: .badMagic)
        /// The file was sealed in a format version this build does not know.
        public static let unknownVersion = Code(value: .unknownVersion)
        /// The header names another kind than the file name does (a ring renamed to tiles).
        public static let wrongKind = Code(value: .wrongKind)
        /// The header names another site than the file name does (one home's file copied over another's).
        public static let wrongSite = Code(value: .wrongSite)
        /// Something other than a regular file sits at the name (a directory, a named pipe, a device, a symbolic
        /// link): it is refused before a byte is read, so it can neither block a launch nor feed it without end.
        public static let notRegularFile = Code(value: .notRegularFile)
        /// The file is larger than any file of its kind is ever written (`SealedFileName.sizeLimit`): refused before
        /// it is read, so a stray huge file costs no memory.
        public static let tooLarge = Code(value: .tooLarge)
        /// The file system refused a read, write, rename or removal (no permission, a full disk, too many open files).
        public static let io = Code(value: .io)
        /// The key provider could not hand out the phone's key: it could not be read or made (or it handed out one
        /// that is not 32 bytes).
        public static let keyUnavailable = Code(value: .keyUnavailable)
        /// The key is gone while sealed files made under it remain: a fresh key would orphan them, so none is made.
        public static let keyMissing = Code(value: .keyMissing)
        /// The key file does not hold a key (not 32 bytes) while sealed files made under a key remain.
        public static let keyMalformed = Code(value: .keyMalformed)
        /// The key file is readable by other users and is not ours to tighten.
        public static let keyExposed = Code(value: .keyExposed)
        /// The phone's key is not the key the folder's files were sealed with (another phone's key file, 32 random
        /// bytes): a file that does not open under it is not proven damaged, so it is kept, and nothing is written
        /// over the folder's files until the right key is back.
        public static let keyMismatch = Code(value: .keyMismatch)
        /// Another phone's key: the store tells it from a damaged file (see ``keyMismatch``).
        public static let wrongKey = keyMismatch
        /// A kept file's model name is not lowercase `[a-z0-9-]`, or is a built-in kind's name.
        public static let invalidName = Code(value: .invalidName)
        /// Another client holds the data folder (`FolderLock`): one client at a time may open a phone's files.
        public static let folderInUse = Code(value: .folderInUse)
        /// The file was written by a newer build, in a format version this build does not read: it is kept as it
        /// is, never dropped nor written over, so going back to that build finds it.
        public static let newerFormat = Code(value: .newerFormat)

        /// Whether a file that failed this way is proven bad (it fails the same way on every launch), so it is removed
        /// and reported `SealEvent.dropped`; otherwise it may open later and is left on disk (`SealEvent.readFailed`).
        public var condemnsFile: Bool {
            switch value {
            case .authenticationFailed, .truncated, .badMagic, .unknownVersion, .wrongKind, .wrongSite, .tooLarge:
                true
            case .notRegularFile, .io, .keyUnavailable, .keyMissing, .keyMalformed, .keyExposed, .keyMismatch,
                .invalidName, .folderInUse, .newerFormat:
                false
            }
        }

        /// Why a file with this code did not open, in words a person reads.
        public var explanation: String {
            switch value {
            case .authenticationFailed: "it did not authenticate under the key that sealed it (changed or cut short)"
            case .truncated: "it is too short to be a sealed file"
            case .badMagic: "it is not a sealed file"
            case .unknownVersion: "it was sealed in a format this build does not know"
            case .wrongKind: "its header names another kind of file"
            case .wrongSite: "its header names another home"
            case .notRegularFile: "it is not a regular file"
            case .tooLarge: "it is larger than any file of its kind"
            case .io: "the file system refused it"
            case .keyUnavailable: "the phone's key is unavailable"
            case .keyMissing: "the phone's key is missing"
            case .keyMalformed: "the phone's key file does not hold a key"
            case .keyExposed: "the phone's key file is readable by others"
            case .keyMismatch: "the phone's key does not match the sealed files"
            case .invalidName: "its name is not a sealed file's name"
            case .folderInUse: "another client holds the phone's files"
            case .newerFormat: "a newer build wrote it, in a format this build does not read"
            }
        }

        /// The code's name.
        public var description: String { "\(value)" }
    }

    /// The code, the message and the cause, in the one storage every coded error shares.
    public var fields: FTWErrorFields<Code>

    /// Makes an error of these fields; ``/FTWBus/FTWStoredError/init(_:_:cause:)`` is the one callers write.
    public init(fields: FTWErrorFields<Code>) { self.fields = fields }

    /// The message alone: the line a person reads says what happened, not the code's name (``/FTWBus/FTWStoredError/code`` is for
    /// deciding).
    public var description: String { message }
}
