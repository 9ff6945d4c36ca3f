import FTWClient
import FTWHeadlessTooling
import FTWSealInterface
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Arguments a person gets wrong, or that mean something else than they seem: each refused with a line that names
/// it, before anything is read, written or erased.
@Suite(.timeLimit(.minutes(2)))
struct CommandArgumentTests {
    private static let site = SamplePairing.site

    /// Found by `run` on a named pipe: it waited for a writer for good.
    @Test func aNamedPipeIsNoScenarioFileAndIsRefusedAtOnce() async throws {
        let scratch = try ScratchFolder()
        let pipe = scratch.url.appendingPathComponent("day.scenario").path
        #expect(mkfifo(pipe, 0o600) == 0)
        let run = try await HeadlessProcess.run(["run", pipe], .init(within: .seconds(20)))
        #expect(run.status == 1, "\(run.errorOutput)")
        #expect(
            run.errorOutput
                == "ftw-headless: '\(pipe)' is not a regular file (a named pipe, a device or a socket): a scenario is"
                + " read from a file\n"
        )
    }

    /// Found with a scenario saved by an editor that ends lines with a lone CR: it read as one long first line.
    @Test(arguments: BuiltInScenario.names)
    func loneCRLineEndsReadAsTheSameScenarioAsLF(name: String) throws {
        let scratch = try ScratchFolder()
        let text = try ScenarioFile.text(atPath: BuiltInScenario.url(name).path)
        let path = try scratch.file("\(name).scenario", text.replacing("\n", with: "\r"))
        #expect(try ScenarioFile.load(path).scenario == ScenarioParser.parse(text))
    }

    /// Found with a bare `forget`: it erased the only paired site, though the usage says `forget SITE | --all`.
    @Test func forgetWithNeitherASiteNorAllIsRefusedAndErasesNothing() async throws {
        let scratch = try ScratchFolder()
        let folder = try await SamplePairing.folder(at: scratch.url.appendingPathComponent("phone"))
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.sealedFolder.path).sorted()
        let run = try await HeadlessProcess.run(["forget", "--data", folder.url.path])
        #expect(run.status == 1)
        #expect(
            run.errorOutput
                == "ftw-headless: 'forget' erases for good: name the site (forget SITE), or every file (forget --all)\n"
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.sealedFolder.path).sorted() == before)
    }

    /// Found with `--data ''`: it wrote the phone's key and sealed files into the current folder.
    @Test(arguments: [
        ["run", "--data", "", "quiet-device"], ["sites", "--data", ""], ["forget", "--all", "--data", ""],
    ])
    func anEmptyDataPathIsRefusedAndNothingIsWrittenHere(arguments: [String]) async throws {
        let scratch = try ScratchFolder()
        let run = try await HeadlessProcess.run(arguments, .init(directory: scratch.url))
        #expect(run.status == 1)
        #expect(run.errorOutput == "ftw-headless: '--data' needs a folder; an empty path would be the current folder\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
    }

    @Test func theStandardFolderFollowsXDGDataHomeElseHomesLocalShare() {
        #expect(
            DataFolder.standard(environment: ["XDG_DATA_HOME": "/data/me", "HOME": "/home/me"]).url.path
                == "/data/me/ftw-headless"
        )
        #expect(DataFolder.standard(environment: ["HOME": "/home/me"]).url.path == "/home/me/.local/share/ftw-headless")
        for unusable in ["", "relative/data"] {
            #expect(
                DataFolder.standard(environment: ["XDG_DATA_HOME": unusable, "HOME": "/home/me"]).url.path
                    == "/home/me/.local/share/ftw-headless",
                "XDG_DATA_HOME '\(unusable)' is not an absolute path, so it is ignored"
            )
        }
    }

    /// The default was `~/.ftw-headless`, not the platform's place, and read the home folder from the accounts
    /// database rather than `$HOME`. An older build's folder is moved, so the phone keeps its sites.
    @Test func theDefaultFolderIsUnderHOMEAndAnOlderBuildsFolderMovesThere() async throws {
        let scratch = try ScratchFolder()
        let environment = ["HOME": scratch.url.path, "PATH": "/usr/bin:/bin"]
        let empty = try await HeadlessProcess.run(["sites"], .init(environment: environment))
        #expect(empty.output == "no paired sites in \(scratch.url.path)/.local/share/ftw-headless\n", "\(empty)")

        _ = try await SamplePairing.folder(at: scratch.url.appendingPathComponent(".ftw-headless"))
        let moved = try await HeadlessProcess.run(["sites"], .init(environment: environment))
        #expect(moved.status == 0, "\(moved.errorOutput)")
        #expect(moved.output.hasPrefix("\(Self.site)  owner"))
        #expect(
            moved.errorOutput
                == "ftw-headless: moved the phone's files from \(scratch.url.path)/.ftw-headless to"
                + " \(scratch.url.path)/.local/share/ftw-headless, the platform's place\n"
        )
        #expect(!FileManager.default.fileExists(atPath: scratch.url.appendingPathComponent(".ftw-headless").path))
        let again = try await HeadlessProcess.run(["sites"], .init(environment: environment))
        #expect(again.errorOutput.isEmpty && again.output.hasPrefix("\(Self.site)  owner"))
    }
}
