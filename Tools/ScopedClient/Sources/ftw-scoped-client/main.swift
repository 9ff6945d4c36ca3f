// ftw-scoped-client --data DIR --site SITE: a client in a process of its own, as an integrator writes one for a
// terminal, for the test that stops it with a signal (Tests/EndToEndTests/ShutdownSignalTests.swift). It runs the
// scoped lifetime with SIGINT and SIGTERM as its shutdown signals, prints `live` once the home screen is live, then
// waits in a sleep until a signal cancels it; it prints `closed` once the run has returned, and exits 0.
import FTWClient
import Foundation

/// Writes a line at once, even when stdout is a pipe.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func runClient(_ arguments: [String]) async throws {
    func value(of option: String) -> String? {
        arguments.firstIndex(of: option).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
    }
    guard let data = value(of: "--data"), let site = value(of: "--site").flatMap(SiteID.init(rawValue:)) else {
        throw CommandError("usage: ftw-scoped-client --data DIR --site SITE")
    }
    let store = try DataFolder(path: data).open()
    guard let paired = await PairedSite.read(site: site, from: store) else {
        throw CommandError("site \(site) is not paired in \(data)")
    }
    do {
        try await HeadlessClient.run(paired: paired, store: store, shutdownSignals: [.interrupt, .terminate]) {
            client in
            try await client.setPhase(.active)
            client.show(.now)
            for await screen in client.observeHomeScreen() where screen.isLive {
                say("live")
                break
            }
            try await Task.sleep(for: .seconds(3600))
        }
    } catch is CancellationError {
        // The signal cancelled the sleep: the run closed the client before it returned.
    }
    say("closed")
}

/// A usage mistake, said in one line.
struct CommandError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}

do {
    try await runClient(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("ftw-scoped-client: \(error)\n".utf8))
    exit(1)
}
