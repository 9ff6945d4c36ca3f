import FTWBus
public import FTWSealInterface
public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One client at a time on a data folder: an advisory lock (`flock`) on `<folder>/.lock`, held from ``init(folder:)``
/// until this value goes, and released by the kernel when its process dies, killed or not.
///
/// Two clients on one folder would write the same files (the last writer wins), remove each other's temporary files,
/// and share one room on the box. The second one, in this process or another, is refused at once with
/// `SealError.Code.folderInUse`, naming the folder and the holder's process id, which the holder writes into the
/// lock file; the loser writes nothing. `flock` locks belong to an open file description, so a second open in the
/// same process conflicts with the first as another process's does.
///
/// A folder this user cannot write takes no lock (``init(folder:)`` returns nil): no client can change a file in
/// it, so two cannot spoil each other's, and the store says of every write why it did not happen.
public final class FolderLock: Sendable {
    /// The lock file's name in the data folder: a dot file, which no sealed file name can be.
    public static let fileName = ".lock"

    /// The locked folder.
    public let folder: URL
    private let descriptor: Int32
    /// Whether the lock made the folder: if nothing else came into it, it goes with the lock, so a command that only
    /// looked (`sites` on a folder that is not there) leaves nothing behind.
    private let madeFolder: Bool

    /// Takes the lock on `folder`, making the folder (0700) if it is missing; nil when the file system does not let
    /// this user make or write the lock file there (a read-only mount, or a folder such as `/proc/self` that takes
    /// no new file).
    ///
    /// - Throws: `SealError` with `.folderInUse` when another client holds it, naming the folder and its process
    ///   id; `.io` when the lock cannot be taken for another reason.
    public init?(folder: URL) throws(SealError) {
        let disk = DiskFolder(folder)
        let path = "\(disk.path)/\(Self.fileName)"
        let existed = access(disk.path, F_OK) == 0
        do {
            try disk.makeFolder()
        } catch {
            return nil
        }
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            // A folder that is there and takes no new file (a read-only mount, another user's, /proc/self) takes no
            // sealed file either.
            if [EACCES, EROFS, EPERM, ENOENT].contains(errno), access(disk.path, F_OK) == 0 { return nil }
            throw SealError(.io, "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let failure = errno
            let holder = Self.holder(descriptor)
            close(descriptor)
            guard failure == EWOULDBLOCK else {
                throw SealError(.io, "cannot lock \(path): \(String(cString: strerror(failure)))")
            }
            let process = holder.map { "process \($0)" } ?? "its process id is not written yet"
            throw SealError(
                .folderInUse,
                "\(disk.path) is in use by another client (\(process)): one client at a time may open a phone's"
                    + " files; quit that one first, or name another folder with --data"
            )
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        self.folder = folder
        self.descriptor = descriptor
        madeFolder = !existed
    }

    /// The process id the holder of the lock on `folder` wrote, or nil when there is none to read.
    public static func holder(of folder: URL) -> Int32? {
        let descriptor = open("\(DiskFolder(folder).path)/\(fileName)", O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return holder(descriptor)
    }

    private static func holder(_ descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(
            String(decoding: bytes.prefix(count), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        )
    }

    /// Removes the lock file while still holding it, for a folder being erased whole (`forget --all`): the folder
    /// can then go too. The lock itself goes with this value.
    public func removeFile() {
        unlink("\(DiskFolder(folder).path)/\(Self.fileName)")
    }

    deinit {
        if madeFolder, DiskFolder(folder).names() == [Self.fileName] {
            removeFile()
            rmdir(DiskFolder(folder).path)
        }
        // Unlocked before it is closed: a child forked meanwhile holds a copy of the descriptor until it execs, and
        // a close alone leaves the lock held by that copy, so the next client on the folder would be refused.
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
