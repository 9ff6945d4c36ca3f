import FTWClient

/// HeadlessClient's own doc comment: a client built with its clocks and dialer, run in the scoped lifetime.
func composedAndScoped(
    site: PairedSite,
    store: any SealedStore,
    dialer: any CarrierDialer,
    clock: any Clock<Duration>,
    wallClock: any WallClock
) async throws {
    let client = HeadlessClient(
        paired: site,
        store: store,
        dialer: dialer,
        clock: clock,
        wallClock: wallClock,
        random: SystemRandomSource(),
        policy: .ageKeyed,
        log: DiscardingLogSink()
    )
    try await client.run { client in
        print("drawn before connecting:", client.drawnAtLaunch?.description ?? "nothing")
        try await client.setPhase(.inactive)  // dial beside the app switch
        try await client.setPhase(.active)
        client.show(.now)
        client.show(.battery)
    }  // sealed, and the session closed with 1000, however the body ended
}

/// The doc comment of `HeadlessClient.run(paired:store:…)` and the HeadlessClient page: the scoped lifetime.
func scoped(site: PairedSite, store: any SealedStore) async throws {
    try await HeadlessClient.run(paired: site, store: store) { client in
        try await client.setPhase(.active)
        client.show(.now)
        for await screen in client.observeHomeScreen() where screen.isLive {
            print(screen)
            break
        }
    }  // persisted, and the session closed with 1000
}

/// The doc comment of `HeadlessClient.forget(_:)`.
func forgotten(_ client: HeadlessClient) async throws {
    try await client.forget()  // this home: the box saw 1000 before any file went
    try await client.forget(.phone)  // every home, and the phone's key last
}
