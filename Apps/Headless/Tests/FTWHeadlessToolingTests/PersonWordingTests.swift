import FTWClient
import FTWHeadlessTooling
import Foundation
import Testing

/// The lines a person reads where issue 32 found them wrong, each held to its exact words: what happened, as the
/// person's situation, in one line and with no internal name (`keyMismatch:`, `carrierLost:`).
@Suite(.timeLimit(.minutes(2)))
struct PersonWordingTests {
    private static let stockholm = TimeZone(identifier: "Europe/Stockholm")!

    /// Plays `text` on the day the shipped scenarios use and prints it as `run` does.
    private static func played(_ name: String, _ text: String) async throws -> (stays: [StayReport], text: String) {
        let stays = try await AgeKeyedDay.stays(name, text)
        let scenario = try ScenarioParser.parse("date 2026-12-02\ntimezone Europe/Stockholm\n" + text)
        let (report, _) = try await ScenarioRunner(scenario: scenario, name: name, policy: .ageKeyed).run()
        return (stays, ReportPrinter(timeZone: stockholm).text(of: report))
    }

    // MARK: The command line

    @Test func anExtraArgumentIsNamedAsOne() async throws {
        let run = try await HeadlessProcess.run(["run", "a", "b"])
        #expect(run.status == 1)
        #expect(run.errorOutput == "ftw-headless: unexpected extra argument 'b': 'run' has no place for it\n")
    }

    @Test func anOptionGivenTwiceIsNamedAsSuch() async throws {
        let run = try await HeadlessProcess.run(["run", "quiet-device", "--json", "--json"])
        #expect(run.status == 1)
        #expect(run.errorOutput == "ftw-headless: --json is given twice; 'run' takes it once\n")
        let data = try await HeadlessProcess.run(["sites", "--data", "/tmp/a", "--data", "/tmp/b"])
        #expect(data.errorOutput == "ftw-headless: --data is given twice; 'sites' takes it once\n")
    }

    @Test func commandsThatTakeNothingRefuseWhatTheyAreGiven() async throws {
        let extra = try await HeadlessProcess.run(["scenarios", "extra"])
        #expect(extra.status == 1)
        #expect(extra.output.isEmpty)
        #expect(
            extra.errorOutput == "ftw-headless: unexpected extra argument 'extra': 'scenarios' has no place for it\n"
        )
        let json = try await HeadlessProcess.run(["scenarios", "--json"])
        #expect(json.status == 1)
        #expect(json.errorOutput == "ftw-headless: unknown option '--json' for 'scenarios'\n")
        let help = try await HeadlessProcess.run(["help", "extra"])
        #expect(help.status == 1)
        #expect(help.output.isEmpty)
        #expect(help.errorOutput == "ftw-headless: unexpected extra argument 'extra': 'help' has no place for it\n")
    }

    // MARK: The data folder

    @Test func forgettingAFolderThatIsNotThereSaysSoAndMakesNone() async throws {
        let scratch = try ScratchFolder()
        let missing = scratch.url.appendingPathComponent("never-made").path
        let forget = try await HeadlessProcess.run(["forget", "--all", "--data", missing])
        #expect(forget.status == 0)
        #expect(forget.output == "nothing to forget: there is no data folder at \(missing)\n")
        #expect(forget.errorOutput.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    /// `/proc/self` takes no file: the write failed where no file was, so "the old file stays" said what was not.
    @Test func aWriteThatFailedWhereNoFileWasClaimsNoOldFile() async throws {
        let pair = try await HeadlessProcess.run(["pair", Self.link, "--data", "/proc/self"])
        #expect(pair.status == 1)
        let lines = pair.errorOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(lines)")
        let site = "pairing-648aa5c579fb30f3"
        #expect(lines.first?.hasPrefix("ftw-headless: could not write \(site), nothing on disk changed: ") == true)
        #expect(lines.last?.hasPrefix("ftw-headless: the phone could not keep its key and the pending site (") == true)
        #expect(!pair.errorOutput.contains("old file"), "\(pair.errorOutput)")
        #expect(!pair.errorOutput.contains("keyUnavailable"), "\(pair.errorOutput)")
    }

    /// Another phone's key in the folder: the record is kept on purpose, said without `keyMismatch:` and not as a
    /// write that failed.
    @Test func aRecordKeptFromAnotherKeyIsSaidAsKeptOnPurpose() async throws {
        let scratch = try ScratchFolder()
        let folder = try await SamplePairing.folder(at: scratch.url.appendingPathComponent("phone"))
        let key = folder.url.appendingPathComponent("phone.key")
        try Data((0..<32).map { _ in UInt8.random(in: 0...255) }).write(to: key)
        let pair = try await HeadlessProcess.run(["pair", Self.link, "--data", folder.url.path])
        #expect(pair.status == 1)
        let site = "pairing-648aa5c579fb30f3"
        #expect(
            pair.errorOutput.hasPrefix(
                "ftw-headless: did not write \(site): \(site) was kept as it is, on purpose: the phone's key is not"
                    + " the key that sealed the files in \(folder.sealedFolder.path);"
            ),
            "\(pair.errorOutput)"
        )
        #expect(!pair.errorOutput.contains("keyMismatch"))
        #expect(!pair.errorOutput.contains("not written over"))
    }

    // MARK: Scenarios

    @Test func aHelloRefusedIsSaidAtOnceAsARefusal() async throws {
        let (stays, text) = try await Self.played(
            "hello-refused",
            """
            at 10:01:00 box fail hello refused always; launch; inactive; active; view now
            wait 5s
            background
            """
        )
        let stay = try #require(stays.first)
        let refusal =
            "the box refused this app's hello at once (E_UNKNOWN_OP): it does not take this app's greeting; the app"
            + " or the box needs an update"
        #expect(stay.notLiveBecause == "the connection closed: " + refusal)
        let closes = stay.timeline.filter { $0.kind == .close }
        #expect(closes.first?.atMs == stay.timeline.first { $0.kind == .handshake }?.atMs, "at once, not at 12 s")
        #expect(text.contains("\n    never live: the connection closed: " + refusal + "\n"), "\(text)")
        #expect(!text.contains("did not answer hello in time"))
    }

    @Test func aBusyHistoryReadIsSaidAsBusy() async throws {
        let (stays, text) = try await Self.played(
            "history-busy",
            """
            at 10:01:00 box fail history busy always; launch; inactive; active; view now
            wait 30s
            background
            """
        )
        let why = try #require(stays.first?.failedReads.first).why
        #expect(why == "the box was busy and could not take hist.query this time (E_UNAVAILABLE)")
        #expect(text.contains(": the box was busy and could not take hist.query this time (E_UNAVAILABLE);"))
        #expect(!text.contains("refused"))
    }

    @Test func aCommandGivenInTheBackgroundIsListed() async throws {
        let (stays, text) = try await Self.played(
            "background-command",
            """
            at 10:01:00 launch; inactive; active; view now
            wait 1m; background; wait 10s
            command mode idle
            wait 10s
            """
        )
        let command = try #require(stays.last?.commands.first)
        #expect(command.inBackground == true)
        #expect(command.error == "no session is up: a command is never kept for later")
        #expect(
            text.contains(
                "\n    command mode idle at 10:02:10.000 (given in the background): failed after 0 ms: no session is"
                    + " up: a command is never kept for later\n"
            ),
            "\(text)"
        )
    }

    @Test func aLaunchKilledBeforeTheFrontIsListed() async throws {
        let (stays, text) = try await Self.played(
            "launch-kill",
            """
            at 10:01:00 launch; kill
            wait 1m
            launch; inactive; active; wait 10s; background
            """
        )
        #expect(stays.count == 2)
        #expect(stays.first?.endedAtMs == stays.first?.beganAtMs, "a stay of 0 ms")
        #expect(stays.first?.notLiveBecause == "the app was killed before it came to the front")
        #expect(text.contains("stay 1  launch  10:01:00  0 request frames\n"), "\(text)")
        #expect(text.contains("    never live: the app was killed before it came to the front\n"))
    }

    /// A well-formed enrolment link (its box and its code are nobody's): the phone writes its key and the pending
    /// site before it dials.
    private static let link =
        "https://app.ftw.energy/p#v2."
        + [32, 16, 0, 32].map { Data(repeating: 3, count: $0).base64EncodedString().replacing("=", with: "") }
        .joined(separator: ".")
}
