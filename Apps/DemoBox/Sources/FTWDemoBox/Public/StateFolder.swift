import FTWBus

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `--state` folder, written with POSIX calls: Foundation's writes neither create a file 0600 from its first
/// byte nor flush the file and the folder to disk.
struct StateFolder {
    /// The folder's path.
    let path: String

    /// Puts `bytes` in place of `name`: a fresh 0600 temporary file, written, flushed, renamed, the folder flushed.
    func replace(_ name: String, with bytes: [UInt8]) throws(DemoBoxError) {
        try makeFolders()
        let target = "\(path)/\(name)"
        let temporary = "\(path)/.\(name).tmp-\(UInt64.random(in: .min ... .max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create a file in \(path)") }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return try abandon(temporary, descriptor, "cannot write \(target)") }
            written += count
        }
        guard fsync(descriptor) == 0 else { return try abandon(temporary, descriptor, "cannot flush \(target)") }
        close(descriptor)
        guard rename(temporary, target) == 0 else {
            let error = failure("cannot rename a file over \(target)")
            unlink(temporary)
            throw error
        }
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return }
        defer { close(folder) }
        guard fsync(folder) == 0 else { throw failure("cannot flush the folder \(path)") }
    }

    /// Makes the folder and every missing one above it 0700; a file in a folder's place is named as such.
    private func makeFolders() throws(DemoBoxError) {
        var made = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            made += "/\(component)"
            guard mkdir(made, 0o700) != 0 else { continue }
            guard errno == EEXIST else { throw failure("cannot make the folder \(made)") }
            var information = stat()
            guard stat(made, &information) == 0, information.st_mode & S_IFMT == S_IFDIR else {
                throw DemoBoxError(.stateFile, "\(made) is a file, not a folder: --state needs a folder")
            }
        }
    }

    private func abandon(_ temporary: String, _ descriptor: Int32, _ what: String) throws(DemoBoxError) {
        let error = failure(what)
        close(descriptor)
        unlink(temporary)
        throw error
    }

    private func failure(_ what: String) -> DemoBoxError {
        DemoBoxError(.stateFile, "\(what): \(String(cString: strerror(errno)))")
    }
}
