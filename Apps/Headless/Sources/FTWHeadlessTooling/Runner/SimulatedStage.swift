import FTWBus
import FTWCache
import FTWClient
import FTWClockSeam
import FTWClockSeamTesting
import FTWCrypto
import FTWDemoBox
import FTWSeal
import FTWSealInterface
import FTWSession

/// The embedded demo box on a simulated clock: an hour passes in a fraction of a second, deterministically.
struct SimulatedStage: ScenarioStage {
    let simulation: Simulation
    let box: SimulatedBox

    var nowMs: Int64 { simulation.clock.nowMs }

    var wallClock: any WallClock { simulation.clock }

    func settle() async { await simulation.settle() }

    func advance(by duration: Duration) async { await simulation.advance(by: duration) }

    func run() async throws { try await box.run() }

    func turn(_ knob: BoxKnob) async -> String? {
        switch knob {
        case .pricesLate(let late): await box.setPricesLate(late)
        case .publishAt(let minutes): await box.setPricePublish(minutesIntoDay: minutes)
        case .deviceQuiet(let source, let quiet): await box.setDeviceQuiet(source, quiet)
        case .cutCarriers: await box.cutCarriers()
        case .silent(let duration): await box.beSilent(for: duration)
        case .silentOff: await box.stopSilence()
        case .relayLatency(let latency): await box.setRelayLatency(latency)
        case .reboot: await box.reboot()
        case .update(let build): await box.update(build: build)
        case .failRead(let fault): await box.failRead(fault)
        case .stopFailing(let read): await box.stopFailing(read)
        }
        return nil
    }

    func turn(relay knob: RelayKnob) async -> String? {
        switch knob {
        case .rotate: await box.rotateRelayEpoch()
        case .skew(let hours): await box.skewRelayClock(hours: Int64(hours))
        case .slowDown: await box.spendJoinAllowance()
        case .restart: await box.restartRelay()
        }
        return nil
    }

    func receivedRequests() async -> [ReceivedRequest]? { await box.receivedRequests }

    /// Builds the app for the demo box's site, pairing it on the first launch with a code from the box, as a
    /// person scanning its QR code would.
    func makeClient(store: FileSealedStore, policy: AskPolicy) async throws -> HeadlessClient {
        let site = SiteID.derived(fromBoxKey: box.boxStaticPublicKey)
        var paired = await PairedSite.read(site: site, from: store)
        if paired == nil {
            let record = PairedSite(
                site: site,
                boxStaticPublicKey: box.boxStaticPublicKey,
                rendezvousSecret: await box.rendezvousSecret,
                lanHint: "",
                devicePrivateKey: X25519.generatePrivateKey(),
                pairingCode: await box.mintPairingCode()
            )
            try await record.write(to: store)
            paired = record
        }
        guard let paired else { throw ScenarioError(line: 1, "the pairing record could not be kept") }
        // The relay path as the wall clock's dialer takes it: this hour's room named by the rendezvous, which adopts
        // the epoch a 4409 or 4410 announces. A new process starts with a new rendezvous, as a relaunch does.
        let rendezvous = RelayRendezvous(secret: paired.rendezvousSecret, wallClock: simulation.clock)
        return HeadlessClient(
            paired: paired,
            store: store,
            dialer: box.relayDialer(
                path: { rendezvous.path },
                noteClose: { rendezvous.noteClose(code: $0, reason: $1) },
                boxArrival: { rendezvous.boxArrival }
            ),
            clock: simulation.clock,
            wallClock: simulation.clock,
            random: SeededRandomSource(seed: 7),
            policy: policy,
            log: DiscardingLogSink()
        )
    }
}
