import FTWClient
import FTWFixtures
import FTWSpawning
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `shutdownSignals:` on a real process: `ftw-scoped-client` runs the scoped lifetime with SIGINT and SIGTERM as its
/// shutdown signals against a demo box's relay on 127.0.0.1, and once it is live the test sends it one, as Ctrl-C or
/// a service manager would. The box must see a close frame (1000), not a dropped socket, and the close must have
/// sealed the readings (the client went straight to `active`, which seals nothing, so only the close can have).
@Suite struct ShutdownSignalTests {
    @Test(arguments: [SIGINT, SIGTERM])
    func aShutdownSignalClosesWith1000AndSealsTheFiles(signal: Int32) async throws {
        try await ScopedClientTests.withPairedPhone { site, folder, log in
            let departures = log.lines.subscribe()
            let child = try ScopedClientChild(folder: folder, site: site.site)
            var lines = child.lines.makeAsyncIterator()
            let live = await DemoBoxChild.line(&lines) { $0 == "live" }
            #expect(live != nil, "the child never went live: \(child.standardError)")
            child.send(signal)
            #expect(await child.exited() == .exited(0), "\(child.standardError)")
            #expect(
                await DemoBoxChild.line(&lines) { $0 == "closed" } != nil,
                "the run did not return after the signal"
            )
            let departure = try await ScopedClientTests.nextDeparture(departures)
            #expect(departure.hasSuffix("close 1000"), "\(departure)")
            #expect(try await ScopedClientTests.sealedTheReadings(site, folder))
        }
    }
}

/// `ftw-scoped-client` as a child process: its lines as a stream, its stderr kept, a signal sent to it, its end.
private final class ScopedClientChild: Sendable {
    enum Ending: Sendable, Hashable {
        case exited(Int32)
        case signalled(Int32)
    }

    private let process = ChildProcess()
    private let errors = ErrorText()
    /// Every line the child prints on stdout, until it exits.
    let lines: AsyncStream<String>

    init(folder: DataFolder, site: SiteID) throws {
        process.executableURL = BuiltProduct.url("ftw-scoped-client")
        process.arguments = ["--data", folder.url.path(percentEncoded: false), "--site", site.rawValue]
        let output = Pipe()
        let errorOutput = Pipe()
        process.standardOutput = output
        process.standardError = errorOutput
        let (lines, sink) = AsyncStream.makeStream(of: String.self)
        self.lines = lines
        try process.run()
        Thread.detachNewThread { DemoBoxChild.read(output.fileHandleForReading, into: sink) }
        Thread.detachNewThread { [errors] in errors.collect(errorOutput.fileHandleForReading) }
        // A child that never goes live or never ends is killed, which ends its lines: the test fails, never hangs.
        let pid = process.processIdentifier
        Task {
            try await ContinuousClock().sleep(for: .seconds(30))
            _ = kill(pid, SIGKILL)
        }
    }

    /// What the child printed on stderr so far.
    var standardError: String { errors.text }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) { process.signal(signal) }

    /// How the child ended, once it has.
    func exited() async -> Ending {
        let status = await process.exited()
        return process.terminationReason == .exit ? .exited(status) : .signalled(status)
    }
}
