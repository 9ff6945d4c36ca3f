import FTWClient

/// The 30-line client of the docs' landing page: pairs once, then runs one stay of the client, printing what the
/// sealed files drew, the home screen until it is live, a node's trace, and the asks the stay cost the box.
func composedClient(qrText: String, folder: DataFolder) async throws {
    let store = try folder.open()  // this client alone: a second one on the folder is refused with its pid
    let link = try EnrolmentURL(parsing: qrText)
    var site = await PairedSite.read(site: link.site, from: store)
    if site == nil || site?.pairingCode.isEmpty == false {
        site = try await Pairing.onWallClock(store: store).pair(link)  // the first time only: the code is single use
    }
    guard let site else { return }

    let log = InMemoryLogSink()
    try await HeadlessClient.run(paired: site, store: store, log: log) { client in
        print("drawn before connecting:", client.drawnAtLaunch.map(\.description) ?? "nothing")
        try await client.setPhase(.active)  // dials; a return from the background asks only what is stale
        client.show(.now)
        for await screen in client.observeHomeScreen() {
            print(screen)  // first from the sealed files, then each change
            if screen.isLive { break }
        }
        client.show(.battery)
        if let battery = TraceField(named: "battery_w") {
            for await trace in client.observeTrace(of: battery).prefix(3) { print(trace) }
        }
    }  // sealed, and the session closed with 1000, however the body ended
    for entry in log.entries(category: "asks") { print(entry.message) }
}
