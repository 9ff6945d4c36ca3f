import Crypto
import Foundation
import SealInterface

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One folder of small files, written so that a crash cannot tear one: the seal's files and the phone's key.
///
/// POSIX calls rather than Foundation's atomic write, because that neither flushes the file and the folder to disk
/// nor creates the file 0600 from its first byte (a key file must never be readable by others, even briefly).
struct DiskFolder: Sendable {
    /// The folder's path, without a trailing slash.
    let path: String

    init(_ url: URL) {
        let path = url.path(percentEncoded: false)
        self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// The bytes of `name`, or nil when there is no such file.
    func contents(of name: String) throws(SealError) -> [UInt8]? {
        let descriptor = open(location(of: name), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw Self.failure("open \(name)")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            guard count > 0 else {
                if errno == EINTR { continue }
                throw Self.failure("read \(name)")
            }
            bytes += chunk[..<count]
        }
    }

    /// Puts `bytes` in place of `name` whole or not at all: a temporary file is written and flushed, then renamed
    /// over `name`, then the folder is flushed so the rename itself survives a power cut.
    ///
    /// - Parameter beforeRename: A test's stand-in for a crash between the write and the rename; when it throws, the
    ///   write stops there and the temporary file is left behind, as a crash would leave it.
    func replace(
        _ name: String,
        with bytes: [UInt8],
        beforeRename: (@Sendable () throws -> Void)? = nil
    ) throws(SealError) {
        let temporary = try writeTemporary(bytes, beside: name)
        do {
            try beforeRename?()
        } catch {
            throw SealError(.io, "stopped before renaming \(temporary) over \(name): \(error)")
        }
        try move(temporary, over: name)
    }

    /// Writes `bytes` to a new 0600 file named after `name` (see ``temporaryName(beside:)``) and flushes it.
    ///
    /// - Returns: The temporary file's name.
    func writeTemporary(_ bytes: [UInt8], beside name: String) throws(SealError) -> String {
        let temporary = Self.temporaryName(beside: name)
        var descriptor = create(temporary)
        if descriptor < 0, errno == ENOENT {
            try makeFolder()
            descriptor = create(temporary)
        }
        guard descriptor >= 0 else { throw Self.failure("create \(temporary)") }
        do throws(SealError) {
            defer { close(descriptor) }
            try writeAll(bytes, to: descriptor, temporary)
            guard fsync(descriptor) == 0 else { throw Self.failure("fsync \(temporary)") }
        } catch {
            unlink(location(of: temporary))
            throw error
        }
        return temporary
    }

    /// Renames `temporary` over `name` and flushes the folder.
    func move(_ temporary: String, over name: String) throws(SealError) {
        guard rename(location(of: temporary), location(of: name)) == 0 else {
            let error = Self.failure("rename \(temporary) over \(name)")
            unlink(location(of: temporary))
            throw error
        }
        try flush()
    }

    /// Gives `temporary` the name `name` unless a file of that name already exists, then removes `temporary`.
    ///
    /// - Returns: false when `name` already existed (someone else got there first).
    func linkIfAbsent(_ temporary: String, as name: String) throws(SealError) -> Bool {
        defer { unlink(location(of: temporary)) }
        guard link(location(of: temporary), location(of: name)) == 0 else {
            if errno == EEXIST { return false }
            throw Self.failure("link \(temporary) as \(name)")
        }
        try flush()
        return true
    }

    /// Removes `name`; a file that is already gone is no failure.
    func remove(_ name: String) throws(SealError) {
        guard unlink(location(of: name)) == 0 || errno == ENOENT else { throw Self.failure("remove \(name)") }
    }

    /// The names of everything in the folder; none when it does not exist.
    func names() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    }

    /// The size of `name` in bytes, or nil when it is gone.
    func size(of name: String) -> Int? {
        var information = stat()
        guard stat(location(of: name), &information) == 0 else { return nil }
        return Int(information.st_size)
    }

    /// Flushes the folder itself, so renames and removals in it survive a power cut; a missing folder has nothing
    /// to flush.
    func flush() throws(SealError) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return }
            throw Self.failure("open the folder \(path)")
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw Self.failure("fsync the folder \(path)") }
    }

    /// A fresh name for a temporary file that will become `name`: `.<name>.tmp-<16 hex digits>`.
    ///
    /// The leading dot keeps it from ever parsing as a sealed file's name, and the random part keeps two writers
    /// (or a leftover from a crash) from ever sharing one.
    static func temporaryName(beside name: String) -> String {
        ".\(name)\(temporaryMark)\(SecureRandom.bytes(count: 8).lowercaseHex)"
    }

    /// The name a temporary file was going to become, or nil when `entry` is no temporary file.
    static func name(besideTemporary entry: String) -> String? {
        guard entry.hasPrefix("."), let mark = entry.range(of: temporaryMark, options: .backwards) else { return nil }
        return String(entry[entry.index(after: entry.startIndex)..<mark.lowerBound])
    }

    private static let temporaryMark = ".tmp-"

    private func location(of name: String) -> String { "\(path)/\(name)" }

    private func create(_ name: String) -> Int32 {
        open(location(of: name), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    }

    private func makeFolder() throws(SealError) {
        do {
            try FileManager.default.createDirectory(
                atPath: path,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw SealError(.io, "cannot make the folder \(path): \(error)")
        }
    }

    private func writeAll(_ bytes: [UInt8], to descriptor: Int32, _ name: String) throws(SealError) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count >= 0 else {
                if errno == EINTR { continue }
                throw Self.failure("write \(name)")
            }
            offset += count
        }
    }

    private static func failure(_ what: String) -> SealError {
        SealError(.io, "\(what): \(String(cString: strerror(errno)))")
    }
}
