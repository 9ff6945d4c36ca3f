import Crypto
public import Foundation
public import SealInterface

/// The phone's key in a 0600 file, `<dataFolder>/phone.key`: the headless stand-in for the Keychain.
///
/// The key is created in a file opened with `O_CREAT | O_EXCL` and mode 0600, flushed, and only then given its
/// name with `link`, so the key file is never readable by others and never seen half written; when two callers race
/// to make it, the first link wins and both hand out that key.
///
/// A key file of the wrong size is replaced with a fresh key rather than refused: it can open nothing, so every
/// sealed file is lost with it either way, and refusing would leave the app unable to write a cache ever again.
/// The loss is not silent: each file sealed under the old key is reported `.dropped(reason: .authenticationFailed)`
/// when it is read.
public struct FileKeyProvider: KeyProvider {
    /// The key file's name inside the data folder.
    public static let fileName = "phone.key"

    private let disk: DiskFolder

    /// Makes a provider whose key lives in `dataFolder` (created with mode 0700 when the key is first made).
    public init(dataFolder: URL) {
        disk = DiskFolder(dataFolder)
    }

    /// The key, made on first use (and remade when the file holds anything but 32 bytes).
    ///
    /// - Throws: `SealError` with `.keyUnavailable` when the file can be neither read nor written.
    public func key() async throws(SealError) -> [UInt8] {
        do {
            return try loadOrMake()
        } catch {
            throw SealError(.keyUnavailable, "the key file: \(error.message)")
        }
    }

    /// Removes the key file (and any half-made one a crash left).
    ///
    /// - Throws: `SealError` with `.keyUnavailable` when it could not be removed.
    public func erase() async throws(SealError) {
        do {
            for entry in disk.names() where DiskFolder.name(besideTemporary: entry) == Self.fileName {
                try disk.remove(entry)
            }
            try disk.remove(Self.fileName)
            try disk.flush()
        } catch {
            throw SealError(.keyUnavailable, "the key file: \(error.message)")
        }
    }

    private func loadOrMake() throws(SealError) -> [UInt8] {
        let size = AEADAlgorithm.keySize
        if let stored = try disk.contents(of: Self.fileName) {
            if stored.count == size { return stored }
            let fresh = SecureRandom.bytes(count: size)
            try disk.move(try disk.writeTemporary(fresh, beside: Self.fileName), over: Self.fileName)
            return fresh
        }
        let fresh = SecureRandom.bytes(count: size)
        if try disk.linkIfAbsent(try disk.writeTemporary(fresh, beside: Self.fileName), as: Self.fileName) {
            return fresh
        }
        // Another caller made the key between our read and our link: theirs is the phone's key.
        guard let theirs = try disk.contents(of: Self.fileName), theirs.count == size else {
            throw SealError(.keyUnavailable, "the key file changed while it was being made")
        }
        return theirs
    }
}
