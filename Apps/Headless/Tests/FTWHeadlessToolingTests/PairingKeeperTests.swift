import FTWBoxProtocol
import FTWBus
import FTWClient
import FTWClockSeamTesting
import FTWSeal
import FTWSealInterface
import FTWSealTestSupport
import FTWSessionInterface
import FTWSessionTestSupport
import Testing

/// The pairing keeper as a service: it runs once, seals the finished record on the first hello, and tells a record
/// it could not seal.
@Suite struct PairingKeeperTests {
    private static let site = SiteID(rawValue: "0123456789abcdef")!

    private static func pending() -> PairedSite {
        PairedSite(
            site: site,
            boxStaticPublicKey: [UInt8](repeating: 7, count: 32),
            rendezvousSecret: [UInt8](repeating: 8, count: 32),
            lanHint: "",
            devicePrivateKey: [UInt8](repeating: 9, count: 32),
            pairingCode: Array("123456".utf8)
        )
    }

    @Test func aSecondRunIsRefusedByNameAndTheFirstSealsTheFinishedRecord() async {
        let store = InMemorySealedStore(
            keys: InMemoryKeyProvider(key: [UInt8](repeating: 1, count: 32)),
            events: EventBus()
        )
        let events = EventBus<SessionEvent>()
        let keeper = PairingKeeper(paired: Self.pending(), store: store, sessionEvents: events)
        let simulation = Simulation(originMs: 0)
        await simulation.run { simulation in
            await withTaskGroup(of: Void.self) { group in
                group.addTask { try? await keeper.run() }
                await simulation.settle()
                await #expect(throws: ServiceError.alreadyRunning("pairing")) { try await keeper.run() }
                events.publish(.connection(.streaming(SampleHello.make())))
                await group.waitForAll()
            }
        }
        let kept = await PairedSite.read(site: Self.site, from: store)
        #expect(kept?.pairingCode == [])
        #expect(kept?.role == SampleHello.make().role.rawValue)
    }

    @Test func aFinishedRecordThatCannotBeSealedIsToldOnTheBus() async throws {
        let store = InMemorySealedStore(keys: FailingKeyProvider(), events: EventBus())
        let events = EventBus<SessionEvent>()
        let keeper = PairingKeeper(paired: Self.pending(), store: store, sessionEvents: events)
        let told = keeper.events.subscribe()
        events.publish(.connection(.streaming(SampleHello.make())))
        try await keeper.run()
        keeper.events.finish()
        #expect(
            await told.reduce(into: [KeepEvent]()) { $0.append($1) } == [.notKept(SealError(.keyUnavailable, "locked"))]
        )
    }
}
