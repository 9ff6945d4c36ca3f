import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A tiny tmpfs mounted over a test's folder, to stand in for a full disk or a read-only folder: the tests run as
/// root, which no file mode stops.
struct ScratchMount {
    let folder: URL

    /// Whether this machine lets the tests mount a tmpfs; the tests that need one are skipped when it does not.
    static let isPermitted: Bool = {
        #if os(Linux)
        let folder = FileManager.default.temporaryDirectory.appending(component: "seal-mount-probe-\(UUID())")
        guard let mount = ScratchMount(at: folder, bytes: 64 << 10) else { return false }
        mount.unmount()
        return true
        #else
        return false
        #endif
    }()

    /// Mounts a tmpfs of `bytes` at `folder` (made first), or nil when mounting is not permitted.
    init?(at folder: URL, bytes: Int) {
        #if os(Linux)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard mount("tmpfs", folder.path, "tmpfs", 0, "size=\(bytes),mode=0700") == 0 else {
            try? FileManager.default.removeItem(at: folder)
            return nil
        }
        self.folder = folder
        #else
        return nil
        #endif
    }

    /// Makes the mount read-only: every create, write, rename and removal in it fails with EROFS.
    func makeReadOnly() -> Bool {
        #if os(Linux)
        let remount: UInt = 32
        let readOnly: UInt = 1
        return mount("tmpfs", folder.path, "tmpfs", remount | readOnly, nil) == 0
        #else
        return false
        #endif
    }

    /// Unmounts it and removes the folder.
    func unmount() {
        #if os(Linux)
        umount2(folder.path, 2)
        #endif
        try? FileManager.default.removeItem(at: folder)
    }
}
