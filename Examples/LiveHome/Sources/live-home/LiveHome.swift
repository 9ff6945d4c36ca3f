// The home screen, the connection and one node's live chart in a terminal, redrawn in place every second: the first
// frame from the sealed files (cached, with its age), then live; while the box is away every age keeps growing and
// the connection line counts down to the next try; each outage stays on the chart as missed time. Ctrl-C (or
// SIGTERM) closes the client as its scoped lifetime does: the box sees a clean close (1000), the files are sealed.
// Usage:  live-home LINK --relay ws://127.0.0.1:8787 [--data DIR] [--field grid_w] [--seconds N]
import FTWClient
import Foundation
import LiveHomeScreen

@main struct LiveHome {
    static func main() async {
        do {
            try await run()
        } catch {
            print("\nlive-home: \(error)")
        }
    }

    static func run() async throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        func option(_ name: String) -> String? {
            guard let at = arguments.firstIndex(of: name), at + 1 < arguments.count else { return nil }
            defer { arguments.removeSubrange(at...(at + 1)) }
            return arguments[at + 1]
        }
        let relayOption = try option("--relay").map { try RelayAddress(parsing: $0) }
        let relay = relayOption ?? .demoBox
        let store = try (option("--data").map { DataFolder(path: $0) } ?? .standard).open()
        let seconds = option("--seconds").flatMap { Int($0) }
        guard let field = TraceField(named: option("--field") ?? "grid_w") else {
            return print("live-home: no such field; one of \(TraceField.traced.map(\.name))")
        }
        guard let text = arguments.first else { return print("usage: live-home LINK [--relay ADDRESS] …") }

        let link = try EnrolmentURL(parsing: text)
        var site = await PairedSite.read(site: link.site, from: store)
        if site == nil || site?.pairingCode.isEmpty == false {
            site = try await Pairing.onWallClock(store: store).pair(link, relay: relay)
        }
        // A relay named on the command line is where the site's relay listens now.
        guard var site else { return }
        site.relay = relayOption?.description ?? site.relay

        let screen = Screen(field: field)
        let ended = try await HeadlessClient.run(
            paired: site,
            store: store,
            shutdownSignals: [.interrupt, .terminate]
        ) { client in
            // Home, each line cleared to its end, then everything below: the frame is redrawn in place. The newline
            // that ends it flushes a line-buffered terminal.
            let draw: @Sendable ([String]) -> Void = { lines in
                print("\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\n") + "\u{1B}[J")
            }
            await withTaskGroup(of: Void.self) { group in
                observe(client, into: screen, field: field, group: &group)
                // The first frame is what the sealed files drew, before anything dials.
                await screen.drawWhenReady(clock: ContinuousClock(), wallClock: client.wallClock, draw: draw)
                group.addTask {
                    await screen.drawEverySecond(
                        clock: ContinuousClock(),
                        wallClock: client.wallClock,
                        reread: { await HomeScreen.read(from: client) },
                        draw: draw
                    )
                }
                try? await client.setPhase(.active)
                client.show(.now)
                client.show(ViewName(rawValue: String(field.name.prefix { $0 != "_" })) ?? .battery)
                // Until the time asked for, or until a shutdown signal cancels this task.
                try? await Task.sleep(for: seconds.map { .seconds($0) } ?? .seconds(365 * 86_400))
                group.cancelAll()
            }
            return Task.isCancelled ? "closed on a signal" : "closed after \(seconds ?? 0) s"
        }
        print("\nlive-home: \(ended): the box saw a clean close (1000) and the files are sealed")
    }

    /// Feeds every observation the frame shows into `screen`, each in its own task of `group`.
    static func observe(
        _ client: HeadlessClient,
        into screen: Screen,
        field: TraceField,
        group: inout TaskGroup<Void>
    ) {
        group.addTask {
            for await home in client.observeHomeScreen() {
                let identity = client.home.identity
                await screen.update { shown in
                    shown.home = home
                    shown.modes = identity?.modes ?? []
                    shown.timeZone = (try? identity?.zone()) ?? .current
                }
            }
        }
        group.addTask { for await trace in client.observeTrace(of: field) { await screen.update { $0.trace = trace } } }
        group.addTask {
            for await status in client.observeConnection() { await screen.update { $0.connection = status } }
        }
        group.addTask { for await prices in client.observePrices() { await screen.update { $0.prices = prices } } }
        group.addTask { for await plan in client.observePlan() { await screen.update { $0.plan = plan } } }
    }
}
