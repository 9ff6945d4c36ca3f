import FTWBus
import FTWCache
import FTWSealInterface
import Foundation

/// The `ftw-headless` command line: each subcommand composes the client and prints what a person reads (or one
/// JSON document with `--json`).
public enum HeadlessCommand {
    /// The usage text.
    public static let usage = """
        usage: ftw-headless <command> [options]

          tour [--json] [--svg FILE]
              The seed's table: the relay-path tour under the age-keyed policy and the old every-return policy,
              side by side, against the embedded demo box on a simulated clock.
          run SCENARIO [--policy age-keyed|every-return] [--data DIR] [--json] [--timeline] [--svg FILE]
                       [--real-time [--site SITE]]
              Runs a scenario file (or a shipped scenario by name) against the embedded demo box, or with
              --real-time on the wall clock against a paired ftw-demobox through its relay. --data keeps the
              phone's sealed files and the embedded box's state in DIR for the next run; --timeline lists each
              stay's connection steps (dial, handshake, hello_ok, live, close), which --json always carries.
          scenarios
              Lists the shipped scenarios.
          launch-clock [--launches N] [--latency MS] [--stay SECONDS] [--baseline PROGRAM] [--instructions] [--json]
              Times N cold launches with sealed files and N without (default 10 each), each a new process,
              against the demo box behind a loopback relay: program, models built, first content, live. The
              files come from one stay of at least --stay seconds (default: until every model holds something).
              Runs the C baseline (ftw-launch-baseline beside this program) on the same files and prints the
              first content's ratio to it, by the wall clock and by processor time; --instructions also counts
              one launch and one baseline run with valgrind's callgrind (the stable ratio, slow).
        """ + "\n" + pairingUsage + "\n" + soakUsage

    /// Runs the command in `arguments` (without the program's name) and returns the process's exit code.
    public static func run(_ arguments: [String]) async -> Int32 {
        var options = CommandOptions(arguments)
        do {
            switch options.command {
            case "tour": return try await tour(&options)
            case "run": return try await runScenario(&options)
            case "launch-clock": return try await launchClock(&options)
            case "launch-once": return try await launchOnce(&options)
            case "pair": return try await pair(&options)
            case "greet": return try await greet(&options)
            case "sites": return try await sites(&options)
            case "forget": return try await forget(&options)
            case "soak": return try await soak(&options)
            case "scenarios":
                try options.finish()
                print(BuiltInScenario.names.joined(separator: "\n"))
                return 0
            case "help", "--help", "-h", nil:
                try options.finish()
                print(usage)
                return options.command == nil ? 2 : 0
            default:
                throw CommandError("unknown command '\(options.command ?? "")'")
            }
        } catch let error as SealError where error.code == .folderInUse {
            // The person's situation, not the code's name: another client holds the folder.
            FileHandle.standardError.write(Data("ftw-headless: \(error.message)\n".utf8))
            return 1
        } catch {
            FileHandle.standardError.write(Data("ftw-headless: \(error)\n".utf8))
            return 1
        }
    }

    private static func tour(_ options: inout CommandOptions) async throws -> Int32 {
        let json = options.flag("--json")
        let svg = try options.value("--svg").map(PictureFile.init)
        try options.finish()
        let scenario = try BuiltInScenario.load("tour")
        let (new, picture) = try await ScenarioRunner(scenario: scenario, name: "tour", policy: .ageKeyed).run()
        let (old, _) = try await ScenarioRunner(scenario: scenario, name: "tour", policy: .everyReturn).run()
        if let svg, let picture { try svg.write(picture) }
        if json {
            try printJSON(TourDocument(ageKeyed: new, everyReturn: old))
        } else {
            let printer = ReportPrinter(timeZone: TimeZone(identifier: scenario.settings.timeZone) ?? .current)
            print(printer.text(of: new))
            print()
            print(printer.text(of: old))
            print()
            print(printer.table(ageKeyed: new, everyReturn: old))
        }
        return new.errors.isEmpty && old.errors.isEmpty ? 0 : 1
    }

    private static func runScenario(_ options: inout CommandOptions) async throws -> Int32 {
        let json = options.flag("--json")
        let showsTimeline = options.flag("--timeline")
        let svg = try options.value("--svg").map(PictureFile.init)
        let policy = try options.value("--policy").map(Self.policy)
        let data = try options.folder("--data")
        let wallClock = try wallClockSite(&options, data: data)
        guard let target = options.positional() else { throw CommandError("'run' needs a scenario file or name") }
        try options.finish()
        let (scenario, name) = try ScenarioFile.load(target)
        let runner = ScenarioRunner(scenario: scenario, name: name, policy: policy, dataFolder: data)
        let report: ScenarioReport
        let picture: SVGChart?
        do {
            (report, picture) =
                if let wallClock { try await runOnWallClock(runner, site: wallClock) } else { try await runner.run() }
        } catch let error as ScenarioError {
            throw ScenarioFileError.line(target, error)
        }
        if let svg {
            guard let picture else { throw CommandError("no picture: the app was not running at the end") }
            try svg.write(picture)
        }
        if json {
            try printJSON(report)
        } else {
            let zone = TimeZone(identifier: scenario.settings.timeZone) ?? .current
            print(ReportPrinter(timeZone: zone, showsTimeline: showsTimeline).text(of: report))
        }
        return report.errors.isEmpty ? 0 : 1
    }

    private static func policy(_ text: String) throws -> AskPolicy {
        switch text {
        case "age-keyed": return .ageKeyed
        case "every-return": return .everyReturn
        default: throw CommandError("a policy is 'age-keyed' or 'every-return', not '\(text)'")
        }
    }

    static func printJSON<Document: Encodable>(_ document: Document) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        print(String(decoding: try encoder.encode(document), as: UTF8.self))
    }
}
