public import FTWBus
import FTWCrypto
public import FTWSealInterface
public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The phone's key in a 0600 file, `<dataFolder>/phone.key`: the headless stand-in for the Keychain.
///
/// The key is created in a file opened with `O_CREAT | O_EXCL` and mode 0600, flushed, and only then given its
/// name with `link`, so the key file is never readable by others and never seen half written; when two callers race
/// to make it, the first link wins and both hand out that key. The data folder is created 0700.
///
/// A key file is read as a sealed file is: never through a symbolic link, never when it is not a regular file, never
/// more than a key's bytes. One readable by other users is tightened to 0600 when it is ours (and `.keyTightened`
/// says so) and refused when it is not (`.keyExposed`).
///
/// A key is made only when it would orphan nothing: while sealed files remain in the sealed folder, a missing key
/// is `.keyMissing` and a file that is not 32 bytes is `.keyMalformed`, so a lost key never silently strands the
/// files it opened. ``FileSealedStore/eraseAll()`` removes them (and the key file) whatever state the key is in.
public struct FileKeyProvider: KeyProvider {
    /// The key file's name inside the data folder.
    public static let fileName = "phone.key"

    /// What sits at the key file's name.
    private enum Stored {
        case absent
        case key([UInt8])
        /// A regular file of `bytes` bytes, which is no key.
        case wrongSize(bytes: Int)
    }

    private let disk: DiskFolder
    private let sealed: DiskFolder
    private let events: EventBus<SealEvent>

    /// Makes a provider whose key lives in `dataFolder` (created with mode 0700 when the key is first made).
    ///
    /// - Parameters:
    ///   - dataFolder: Where `phone.key` lives.
    ///   - sealedFolder: The folder of the files sealed under this key, which a fresh key would orphan; the data
    ///     folder itself when nil.
    ///   - events: Where a key file tightened to 0600 is reported; pass the store's bus so the app prints it.
    public init(dataFolder: URL, sealedFolder: URL? = nil, events: EventBus<SealEvent> = EventBus()) {
        disk = DiskFolder(dataFolder)
        sealed = DiskFolder(sealedFolder ?? dataFolder)
        self.events = events
    }

    /// The key file's path, as messages name it.
    public var path: String { "\(disk.path)/\(Self.fileName)" }

    /// The key, made on first use (and remade when the file holds anything but 32 bytes and no sealed file remains).
    ///
    /// - Throws: `SealError` naming the key file: `.keyMissing` or `.keyMalformed` when sealed files remain that only
    ///   the lost key opens, `.keyExposed` when the file is readable by others and not ours, `.notRegularFile` when
    ///   something else sits at its name, `.keyUnavailable` when it can be neither read nor written.
    public func key() async throws(SealError) -> [UInt8] {
        do {
            return try loadOrMake()
        } catch  where error.code == .io {
            throw SealError(.keyUnavailable, "the key file: \(error.message)", cause: error)
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
            throw SealError(.keyUnavailable, "the key file: \(error.message)", cause: error)
        }
    }

    private func loadOrMake() throws(SealError) -> [UInt8] {
        let size = AEADAlgorithm.keySize
        switch try storedKey() {
        case .key(let key):
            return key
        case .wrongSize(let bytes):
            try refuseOrphaning("\(path) holds \(bytes) bytes, not a \(size)-byte key", .keyMalformed)
            let fresh = SecureRandom.bytes(count: size)
            try disk.move(try disk.writeTemporary(fresh, beside: Self.fileName), over: Self.fileName)
            return fresh
        case .absent:
            break
        }
        try refuseOrphaning("\(path) is missing", .keyMissing)
        try disk.makeFolder()
        let fresh = SecureRandom.bytes(count: size)
        if try disk.linkIfAbsent(try disk.writeTemporary(fresh, beside: Self.fileName), as: Self.fileName) {
            return fresh
        }
        // Another caller made the key between our read and our link: theirs is the phone's key.
        guard case .key(let theirs) = try storedKey() else {
            throw SealError(.keyUnavailable, "\(path) changed while it was being made")
        }
        return theirs
    }

    /// What the key file holds; a file of another size than a key is not read at all.
    private func storedKey() throws(SealError) -> Stored {
        guard let file = try disk.openRegular(Self.fileName) else { return .absent }
        defer { close(file.descriptor) }
        let mode = UInt16(file.information.st_mode & 0o777)
        if mode & 0o077 != 0 {
            guard file.information.st_uid == geteuid() else {
                throw SealError(
                    .keyExposed,
                    "\(path) has mode 0\(String(mode, radix: 8)) and belongs to uid \(file.information.st_uid), "
                        + "not to this user (uid \(geteuid())): only its owner may make it 0600"
                )
            }
            guard fchmod(file.descriptor, 0o600) == 0 else {
                throw SealError(
                    .keyExposed,
                    "\(path) has mode 0\(String(mode, radix: 8)) and could not be made 0600: "
                        + String(cString: strerror(errno))
                )
            }
            events.publish(.keyTightened(file: path, mode: mode))
        }
        let size = AEADAlgorithm.keySize
        guard file.information.st_size == size else { return .wrongSize(bytes: Int(file.information.st_size)) }
        let bytes = try DiskFolder.readBounded(file, limit: size + 1, path)
        return bytes.count == size ? .key(bytes) : .wrongSize(bytes: bytes.count)
    }

    /// Throws `code` with `problem` when sealed files remain that a fresh key would leave unopenable for good.
    private func refuseOrphaning(_ problem: String, _ code: SealError.Code) throws(SealError) {
        let orphans = sealed.names().filter { SealedFileName(fileName: $0) != nil }.count
        guard orphans > 0 else { return }
        throw SealError(
            code,
            "\(problem), and \(orphans) sealed file\(orphans == 1 ? "" : "s") in \(sealed.path) open only under the "
                + "key it held: restore the key, or erase them (forget --all)"
        )
    }
}
