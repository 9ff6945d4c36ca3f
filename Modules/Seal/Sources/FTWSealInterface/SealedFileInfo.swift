/// One sealed file as it sits on disk: for tests and for keeping an eye on how much the cache takes.
public struct SealedFileInfo: Sendable, Hashable {
    /// The file's name.
    public let name: SealedFileName
    /// Its size on disk in bytes, the seal's header, nonce and tag included.
    public let bytes: Int

    /// Describes a file.
    public init(name: SealedFileName, bytes: Int) {
        self.name = name
        self.bytes = bytes
    }
}
