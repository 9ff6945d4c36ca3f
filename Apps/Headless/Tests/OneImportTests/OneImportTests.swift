// An integrator's file: this target declares `FTWClient` alone and this file imports it alone, and CI compiles it
// with the explicit import check on, so naming anything below from another module without `import FTWClient`
// carrying it fails the build. It names the types an app names through the client's API.
import FTWClient
import Testing

/// What an app's code names: the client, its lifetime and phases, the events it may watch, the observed values,
/// the clocks, the log and the sealed store.
struct IntegratorsView {
    let client: HeadlessClient
    let phase: ScenePhase = .active
    let policy: AskPolicy = .ageKeyed
    let wallClock: any WallClock = SystemWallClock()
    let log: any LogSink = InMemoryLogSink()

    func watch() async {
        for await event in client.sessionEvents.subscribe() {
            if case .connection(let state) = event, case .streaming(let hello) = state { _ = hello.role }
            if case .asked(let record) = event { _ = record }
        }
        let trace: LiveTrace = client.trace
        _ = await trace.missed()
        let field: TraceField? = TraceField(named: "battery_w")
        _ = field.map { client.observeTrace(of: $0) }
        let screens: ValueObservation<HomeScreen> = client.observeHomeScreen()
        _ = screens
        let prices: ValueObservation<ShownAnswer<PriceWindow>> = client.observePrices()
        _ = prices
        let history: ValueObservation<HistoryWindow> = client.observeHistory()
        _ = history
        let chargers: ChargerList? = await client.chargers.value
        _ = chargers
        let error: SessionError? = nil
        let sealError: SealError? = nil
        _ = (error, sealError)
        let store: (any SealedStore)? = try? DataFolder(path: "/nonexistent").open()
        _ = store
        let scope: ForgetScope = .site
        try? await client.forget(scope)
        let events: EventBus<SealEvent> = EventBus()
        _ = events
        let service: any ClientService = client.session
        _ = service.serviceName
        let arrival: BoxArrival? = nil
        _ = arrival
    }
}

@Suite struct OneImportTests {
    @Test func anIntegratorNamesTheClientsTypesWithOneImport() {
        #expect(TraceField(named: "battery_w")?.unit == "W")
        #expect(ScenePhase.background != .active)
        #expect(RelayAddress.production.description == "wss://relay.ftw.energy:443")
    }
}
