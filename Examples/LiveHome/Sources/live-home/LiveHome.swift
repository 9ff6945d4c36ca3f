// The home screen and one node's live chart in a terminal, redrawn in place at most once a second: the first frame
// from the sealed files (marked cached, with its age), then live, with the time the app missed marked in the chart.
// Usage:  live-home LINK --relay ws://127.0.0.1:8787 [--data DIR] [--field grid_w] [--seconds N]
import FTWClient

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

        try await HeadlessClient.run(paired: site, store: store) { client in
            let screen = Screen(field: field)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { for await home in client.observeHomeScreen() { await screen.set(home) } }
                group.addTask { for await trace in client.observeTrace(of: field) { await screen.set(trace) } }
                group.addTask { await screen.drawEverySecond(nowMs: { client.nowMs }) }
                // The first frame is what the sealed files drew, before anything dials.
                await screen.drawWhenReady(nowMs: client.nowMs)
                try await client.setPhase(.active)
                client.show(.now)
                client.show(ViewName(rawValue: String(field.name.prefix { $0 != "_" })) ?? .battery)
                if let seconds { try? await Task.sleep(for: .seconds(seconds)) } else { _ = try await group.next() }
                group.cancelAll()
            }
            screen.leave()
        }
    }
}
