import FTWBus
import FTWCrypto
import FTWSealInterface
import Foundation

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
    /// A file opened by ``openRegular(_:)``, with what `fstat` said of it.
    struct OpenFile {
        let descriptor: Int32
        let information: stat
    }

    /// The folder's path, without a trailing slash.
    let path: String

    /// A test's stand-in for a file system that refuses an open: the `errno` to fail with, by file name
    /// (``listingName`` for listing the folder).
    private let openFailure: (@Sendable (String) -> Int32?)?

    init(_ url: URL, openFailure: (@Sendable (String) -> Int32?)? = nil) {
        self.openFailure = openFailure
        let path = url.path(percentEncoded: false)
        self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// The bytes of `name`, at most `limit` of them, or nil when there is no such file.
    ///
    /// - Throws: `SealError` with `.notRegularFile`, `.tooLarge` or `.io` (see ``openRegular(_:)``).
    func contents(of name: String, limit: Int) throws(SealError) -> [UInt8]? {
        guard let file = try openRegular(name) else { return nil }
        defer { close(file.descriptor) }
        return try Self.readBounded(file, limit: limit, name)
    }

    /// Opens `name` for reading and checks it is a regular file, or nil when there is no such file.
    ///
    /// The open never follows a symbolic link and never waits (a named pipe in a file's place would block a launch
    /// for good), and the check is made on the opened descriptor, so what was checked is what is read. The caller
    /// closes the descriptor.
    ///
    /// - Throws: `SealError` with `.notRegularFile` for a symbolic link, a folder, a named pipe, a device or a
    ///   socket; `.io` when the file system refuses the open.
    func openRegular(_ name: String) throws(SealError) -> OpenFile? {
        var descriptor = Int32(-1)
        if let failure = openFailure?(name) {
            errno = failure
        } else {
            descriptor = open(location(of: name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        }
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP: throw SealError(.notRegularFile, "\(location(of: name)) is a symbolic link, not a regular file")
            default: throw Self.failure("open \(location(of: name))")
            }
        }
        var information = stat()
        guard fstat(descriptor, &information) == 0 else {
            let error = Self.failure("stat \(location(of: name))")
            close(descriptor)
            throw error
        }
        guard information.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw SealError(
                .notRegularFile,
                "\(location(of: name)) is \(Self.what(information.st_mode)), not a regular file"
            )
        }
        return OpenFile(descriptor: descriptor, information: information)
    }

    /// The bytes of the opened `file`, refused unread when its size is past `limit`; a file that grows while it is
    /// read is refused at `limit` + 1 bytes, so memory never goes past that.
    ///
    /// The buffer starts at the size the file had when opened, plus one byte that tells a file that grew, and doubles
    /// only while the file keeps growing: a launch reads a 139-byte ring without zeroing the 256 KB its kind may hold
    /// (that cost half a millisecond of page faults on the way to the first content).
    static func readBounded(_ file: OpenFile, limit: Int, _ name: String) throws(SealError) -> [UInt8] {
        let size = Int(file.information.st_size)
        guard size <= limit else { throw tooLarge(name, size, limit) }
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard count <= limit else { throw tooLarge(name, count, limit) }
                bytes.append(contentsOf: repeatElement(0, count: min(count, limit + 1 - count)))
            }
            let got = bytes[count...].withUnsafeMutableBytes { read(file.descriptor, $0.baseAddress, $0.count) }
            if got == 0 { break }
            guard got > 0 else {
                if errno == EINTR { continue }
                throw failure("read \(name)")
            }
            count += got
        }
        return Array(bytes[..<count])
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
            throw SealError(.io, "stopped before renaming \(temporary) over \(name): \(error)", cause: error)
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

    /// The names of everything in the folder; none when it does not exist or cannot be listed (see ``listing()``
    /// for a caller that must tell an empty folder from one it may not read).
    func names() -> [String] {
        (try? listing()) ?? []
    }

    /// The names of everything in the folder; none when it does not exist.
    ///
    /// - Throws: `SealError` with `.io` naming the folder and the system's reason when it exists and cannot be
    ///   listed (no permission, not a folder): its files may be fine, so this is no empty folder.
    func listing() throws(SealError) -> [String] {
        if let failure = openFailure?(Self.listingName) {
            errno = failure
            throw Self.failure("cannot list \(path)")
        }
        guard let folder = opendir(path) else {
            if errno == ENOENT { return [] }
            throw Self.failure("cannot list \(path)")
        }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The name ``openFailure`` is asked about for listing the folder itself.
    static let listingName = "."

    /// The size of `name` in bytes (a symbolic link's own, never its target's), or nil when it is gone.
    func size(of name: String) -> Int? {
        var information = stat()
        guard lstat(location(of: name), &information) == 0 else { return nil }
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
    /// (or a leftover from a crash) from ever sharing one. The name is no secret: it comes from the standard
    /// library's generator (the kernel's, via `getrandom`), not libcrypto's, which costs 7 k instructions a call
    /// and the ring file is written every 15 s.
    static func temporaryName(beside name: String) -> String {
        let random = UInt64.random(in: .min ... .max)
        let digits = (0..<16).map { Self.hexDigits[Int((random >> (60 - 4 * UInt64($0))) & 0xf)] }
        return "." + name + temporaryMark + String(decoding: digits, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

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

    /// Makes the folder and every missing folder above it 0700: they hold the phone's key and what it saw of each
    /// home, which no other user may list.
    func makeFolder() throws(SealError) {
        var made = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            made += "/\(component)"
            guard mkdir(made, 0o700) == 0 || errno == EEXIST else {
                throw Self.failure("cannot make the folder \(made)")
            }
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

    private static func tooLarge(_ name: String, _ size: Int, _ limit: Int) -> SealError {
        SealError(.tooLarge, "\(name) holds \(size) bytes, more than the \(limit) a file of its kind may")
    }

    /// What a file that is not a regular one is, for a message.
    private static func what(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a named pipe"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "not a plain file"
        }
    }

    private static func failure(_ what: String) -> SealError {
        SealError(.io, "\(what): \(String(cString: strerror(errno)))")
    }
}
