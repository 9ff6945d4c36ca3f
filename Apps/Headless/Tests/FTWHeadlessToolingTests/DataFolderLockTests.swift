import FTWClient
import FTWFixtures
import FTWSeal
import FTWSealInterface
import FTWSpawning
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One client per data folder (issue 32): a second one, in this process or another, is refused at once with the
/// folder and the holder's process id, and writes nothing; a killed holder's lock is gone for the next run.
@Suite struct DataFolderLockTests {
    private static func inUse(_ folder: DataFolder, by pid: Int32) -> String {
        "ftw-headless: \(folder.url.path) is in use by another client (process \(pid)): one client at a time may"
            + " open a phone's files; quit that one first, or name another folder with --data\n"
    }

    /// Through the composition an app uses: while a client runs on the folder, a second store of it is refused.
    @Test func aSecondClientInTheSameProcessIsRefusedWithTheFolderAndThisProcess() async throws {
        let scratch = try ScratchFolder()
        let folder = try await SamplePairing.folder(at: scratch.url.appendingPathComponent("phone"))
        let holder = try folder.open()
        let client = try HeadlessClient.onWallClock(paired: SamplePairing.record, store: holder)
        _ = await client.launch()
        let before = Self.files(folder)
        #expect(throws: SealError.self) { _ = try folder.open() }
        do {
            _ = try folder.open()
        } catch {
            #expect(error.code == .folderInUse)
            #expect(error.message.contains("\(folder.url.path) is in use by another client (process \(getpid()))"))
        }
        #expect(Self.files(folder) == before, "the refused client wrote nothing")
        await client.close()
    }

    /// The lock goes with its holder: a store let go frees the folder for the next client.
    @Test func theFolderIsFreeOnceItsHolderIsGone() async throws {
        let scratch = try ScratchFolder()
        let folder = DataFolder(url: scratch.url.appendingPathComponent("phone"))
        var first: FileSealedStore? = try folder.open()
        #expect(FolderLock.holder(of: folder.url) == getpid())
        #expect(throws: SealError.self) { _ = try folder.open() }
        _ = first
        first = nil
        _ = try folder.open()
    }

    #if canImport(Glibc)
    /// The lock goes with its holder even while a child forked meanwhile still has a copy of its descriptor (a
    /// spawn between its fork and its exec): the next client on the folder is not refused by that copy. Linux only:
    /// Swift on Apple platforms offers no `fork`.
    @Test func theFolderIsFreeOnceItsHolderIsGoneThoughAForkedChildHoldsACopy() async throws {
        let scratch = try ScratchFolder()
        // A folder with a file in it keeps its lock file when the holder goes, as a phone's does.
        let folder = try await SamplePairing.folder(at: scratch.url.appendingPathComponent("phone"))
        var first: FileSealedStore? = try folder.open()
        let child = fork()
        if child == 0 { while true { pause() } }
        defer {
            kill(child, SIGKILL)
            var status: Int32 = 0
            waitpid(child, &status, 0)
        }
        _ = first
        first = nil
        #expect(throws: Never.self) { _ = try folder.open() }
    }
    #endif

    /// Another process: `ftw-headless run --data D` while this process holds D exits at once naming this process;
    /// so does every other command that opens a data folder, the launch clock's client among them.
    @Test func aSecondRunWhileOneHoldsTheFolderExitsAtOnceWithTheHoldersPid() async throws {
        let scratch = try ScratchFolder()
        let folder = DataFolder(url: scratch.url.appendingPathComponent("phone"))
        let lock = try FolderLock(folder: folder.url)
        let before = Self.files(folder)
        let launch = ["launch-once", "--site", SamplePairing.site.rawValue, "--until-content"]
        for command in [["run", "tour"], ["sites"], ["forget", "--all"], launch] {
            let run = try await HeadlessProcess.run(command + ["--data", folder.url.path], .init(within: .seconds(30)))
            #expect(run.status == 1, "\(command)")
            #expect(run.errorOutput == Self.inUse(folder, by: getpid()), "\(command): \(run.errorOutput)")
        }
        #expect(Self.files(folder) == before, "the refused runs wrote nothing")
        withExtendedLifetime(lock) {}
    }

    /// A holder killed with SIGKILL leaves no lock: the kernel lets it go with the process, and the next run
    /// opens the folder. While it lives, a second run names its process id.
    @Test func aKilledHoldersLockIsGoneForTheNextRun() async throws {
        let scratch = try ScratchFolder()
        let folder = try await SamplePairing.folder(at: scratch.url.appendingPathComponent("phone"))
        let holder = ChildProcess()
        holder.executableURL = BuiltProduct.url("ftw-headless")
        // On the wall clock against a relay that is not there: it holds the folder while it dials again and again.
        holder.arguments = ["run", "--real-time", "tour", "--data", folder.url.path]
        holder.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        holder.standardError = FileHandle(forWritingAtPath: "/dev/null")
        try holder.run()
        defer { holder.terminate() }
        try await Self.waitUntilHeld(folder, by: holder.processIdentifier)
        let refused = try await HeadlessProcess.run(["sites", "--data", folder.url.path])
        #expect(refused.status == 1)
        #expect(refused.errorOutput == Self.inUse(folder, by: holder.processIdentifier), "\(refused.errorOutput)")
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        let next = try await HeadlessProcess.run(["sites", "--data", folder.url.path])
        #expect(next.status == 0, "\(next.errorOutput)")
        #expect(next.output.hasPrefix("\(SamplePairing.site)  owner"), "\(next.output)")
    }

    /// Waits (bounded) until `pid` holds the folder: its id in the lock file (a fresh folder has no lock file before).
    private static func waitUntilHeld(_ folder: DataFolder, by pid: Int32) async throws {
        for _ in 0..<600 {
            if FolderLock.holder(of: folder.url) == pid { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("process \(pid) never held \(folder.url.path)")
    }

    private static func files(_ folder: DataFolder) -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.url.path)
        while let path = enumerator?.nextObject() as? String {
            files[path] = FileManager.default.contents(atPath: folder.url.appendingPathComponent(path).path)
        }
        return files
    }
}
