// Pairs with a box from its enrolment link (once: a second run finds the site in the data folder), greets it, and
// runs the client for a few seconds: what the sealed files drew, then the home screen once it is live and complete.
// Usage:  minimal-client LINK --relay ws://127.0.0.1:8787 [--seconds 5] [--data DIR]
import FTWClient

@main struct MinimalClient {
    static func main() async throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        func option(_ name: String) -> String? {
            guard let at = arguments.firstIndex(of: name), at + 1 < arguments.count else { return nil }
            defer { arguments.removeSubrange(at...(at + 1)) }
            return arguments[at + 1]
        }
        let relay = try option("--relay").map { try RelayAddress(parsing: $0) } ?? .demoBox
        let seconds = Int(option("--seconds") ?? "5") ?? 5
        let store = try (option("--data").map { DataFolder(path: $0) } ?? .standard).open()
        guard let text = arguments.first else { return print("usage: minimal-client LINK [--relay ADDRESS] …") }

        let link = try EnrolmentURL(parsing: text)
        var site = await PairedSite.read(site: link.site, from: store)
        if site == nil || site?.pairingCode.isEmpty == false {
            site = try await Pairing.onWallClock(store: store).pair(link, relay: relay)
            print("paired with site \(link.site) as \(site?.role ?? "?")")
        }
        guard let site else { return }

        try await HeadlessClient.run(paired: site, store: store) { client in
            print("drawn before connecting: \(client.drawnAtLaunch?.description ?? "nothing")")
            try await client.setPhase(.active)
            client.show(.now)
            let screen = await withTaskGroup(of: HomeScreen?.self) { group in
                group.addTask {
                    await client.observeHomeScreen().first {
                        $0.isLive && $0.chargers != nil && $0.planSlots != nil && $0.priceRates != nil
                    }
                }
                group.addTask {
                    try? await Task.sleep(for: .seconds(seconds))
                    return await HomeScreen.read(from: client)
                }
                defer { group.cancelAll() }
                return await group.next() ?? nil
            }
            print(screen.map(String.init(describing:)) ?? "no home screen")
        }
    }
}
