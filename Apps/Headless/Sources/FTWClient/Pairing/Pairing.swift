public import FTWBoxProtocol
import FTWBus
public import FTWClockSeam
import FTWCrypto
public import FTWSealInterface
public import FTWSession
public import FTWSessionInterface

/// Pairs this phone with a box from its enrolment link, and greets a paired box again as a known device.
///
/// Pairing keeps what the phone needs before it spends anything: the device key and the pending site are sealed
/// (`pairing-<site>`, with the code and no role) before the link's single-use code leaves as message 1's payload, and
/// a phone that cannot keep them sends nothing. Only when the box answers hello is the record finished (the role and
/// scopes it granted, an empty code). A box answers a bad code with silence, and a cut, a slow relay or a full disk
/// can lose its answer to a good one, so the session never offers the code again after an offer without a clear
/// answer before it has greeted the box as a known device (the box enrols the key when it takes message 1), and a
/// pairing that ends without hello leaves the site pending: the next `pair` of the same box greets first too.
/// A greeting sends an empty payload, as a device the box already knows.
///
/// A box refuses a handshake in silence, so an offer of the code met by silence on a quiet link, and then a greeting
/// met by silence, is the refusal: the pairing stops there rather than redialling, because each offer would spend
/// another of the five guesses the code allows.
public struct Pairing: Sendable {
    private let store: any SealedStore
    private let clock: any Clock<Duration>
    /// How the session's deadlines sleep on `clock`: said by ``onWallClock(store:)``, which made it.
    package private(set) var deadlineSleep = DeadlineSleep.unasked
    private let wallClock: any WallClock
    private let random: any RandomSource
    private let deadline: Duration

    /// Makes a pairing over `store`.
    ///
    /// - Parameters:
    ///   - store: The phone's sealed files.
    ///   - clock: The clock the session's deadlines and `deadline` run on.
    ///   - wallClock: The wall clock (the relay room's epoch).
    ///   - random: The session's backoff jitter.
    ///   - deadline: How long to wait for a box that does not answer at all (no relay, or no box in the room); at the
    ///     hour's turn, counted from when the relay brings the box into this hour's room.
    public init(
        store: any SealedStore,
        clock: any Clock<Duration>,
        wallClock: any WallClock,
        random: any RandomSource = SystemRandomSource(),
        deadline: Duration = .seconds(20)
    ) {
        self.store = store
        self.clock = clock
        self.wallClock = wallClock
        self.random = random
        self.deadline = deadline
    }

    /// A pairing on the real clocks, as a phone pairs.
    ///
    /// - Parameter store: The phone's sealed files (``DataFolder/store(events:)``).
    public static func onWallClock(store: any SealedStore) -> Pairing {
        var pairing = Pairing(store: store, clock: ContinuousClock(), wallClock: SystemWallClock())
        pairing.deadlineSleep = .plain
        return pairing
    }

    /// The dialer for the relay room of the box with `rendezvousSecret`, trusting `caFile` besides the system's
    /// trust store on a `wss://` relay.
    public func dialer(rendezvousSecret: [UInt8], relay: RelayAddress, caFile: String? = nil) -> RelayDialer {
        relay.dialer(rendezvousSecret: rendezvousSecret, caFile: caFile, clock: clock, wallClock: wallClock)
    }

    /// Enrols with `link`'s code through `relay` and seals the site once the box answers hello.
    ///
    /// A site paired before (or left pending) keeps its device key and greets the box as a known device first: a
    /// box that knows the phone answers, and the code is not spent; one that does not hears the code next, and
    /// replaces its entry for the key rather than adding a second one.
    ///
    /// - Parameters:
    ///   - link: The box's enrolment link.
    ///   - relay: The relay it listens on (kept with the site): the production relay unless told otherwise, since a
    ///     real box's relay is not configurable (protocol.md §8.3). The link's LAN hint is not a relay address.
    ///   - caFile: A PEM file of CA certificates to trust on a `wss://` relay besides the system's (kept with the
    ///     site).
    ///   - dialer: Opens carriers to the box; nil for `relay`'s room.
    /// - Throws: ``EnrolmentError`` `.refused` when the box stays silent, `.noAnswer` when nothing answers;
    ///   ``/FTWSealInterface/SealError`` when the site cannot be sealed.
    public func pair(
        _ link: EnrolmentURL,
        relay: RelayAddress = .production,
        caFile: String? = nil,
        dialer: (any CarrierDialer)? = nil
    ) async throws -> PairedSite {
        let known = await PairedSite.read(site: link.site, from: store)
        let dialer = dialer ?? self.dialer(rendezvousSecret: link.rendezvousSecret, relay: relay, caFile: caFile)
        var site = PairedSite(
            site: link.site,
            boxStaticPublicKey: link.boxStaticPublicKey,
            rendezvousSecret: link.rendezvousSecret,
            lanHint: link.lanHint,
            devicePrivateKey: known?.devicePrivateKey ?? X25519.generatePrivateKey(),
            pairingCode: link.pairingCode,
            relay: relay.description,
            caFile: caFile
        )
        do {
            try await site.write(to: store)
        } catch {
            throw EnrolmentError(
                .notKept,
                "the phone could not keep its key and the pending site (\(error)); the pairing code was not sent",
                cause: error
            )
        }
        // A record of an earlier pairing: the box may know this phone already (a pending one's code may have
        // enrolled it, a finished one did), so greet first and spend the code only if the box does not.
        site.codeMayBeSpent = known != nil
        let hello = try await connect(site, dialer: dialer)
        site.pairingCode = []
        site.codeMayBeSpent = false
        try await keep(site, granted: hello)
        return await PairedSite.read(site: site.site, from: store) ?? site
    }

    /// Greets a paired site as a known device (empty payload) and keeps what its hello granted this time.
    ///
    /// - Parameters:
    ///   - site: The paired site.
    ///   - relay: Where its relay listens now, kept with the site; nil for where it listened before.
    ///   - caFile: A PEM file of CA certificates to trust on a `wss://` relay, kept with the site; nil for the one the
    ///     site was paired with.
    ///   - dialer: Opens carriers to the box; nil for the relay's room.
    /// - Returns: The box's hello answer.
    /// - Throws: ``EnrolmentError`` as ``pair(_:relay:caFile:dialer:)``, `.relay` when the site has no relay address.
    public func greet(
        _ site: PairedSite,
        relay: RelayAddress? = nil,
        caFile: String? = nil,
        dialer: (any CarrierDialer)? = nil
    ) async throws -> HelloOK {
        let address = try relay ?? RelayAddress(parsing: site.relay ?? "")
        var record = site
        record.relay = address.description
        record.caFile = caFile ?? site.caFile
        record.pairingCode = []
        record.codeMayBeSpent = false
        let hello = try await connect(
            record,
            dialer: dialer
                ?? self.dialer(rendezvousSecret: site.rendezvousSecret, relay: address, caFile: record.caFile)
        )
        try await keep(record, granted: hello)
        return hello
    }

    private func keep(_ site: PairedSite, granted hello: HelloOK) async throws {
        var record = site
        record.role = hello.role.rawValue
        record.scopes = hello.scopes.map(\.rawValue)
        try await record.write(to: store)
    }

    /// One session, in front, until hello is answered, the handshake goes unanswered, or the deadline passes.
    private func connect(_ site: PairedSite, dialer: any CarrierDialer) async throws -> HelloOK {
        let events = EventBus<SessionEvent>()
        var configuration = SessionConfiguration(build: "ftw-headless")
        configuration.haltsOnUntrustedRelay = true
        let session = LiveSession(
            dialer: dialer,
            identity: site.sessionIdentity,
            configuration: configuration,
            clock: clock,
            deadlineSleep: deadlineSleep,
            wallClock: wallClock,
            random: random,
            log: DiscardingLogSink(),
            events: events,
            executor: nil
        )
        let states = events.subscribe()
        let outcome = await withTaskGroup(of: Result<HelloOK, EnrolmentError>?.self) { group in
            group.addTask {
                try? await session.run()
                return nil
            }
            group.addTask { await Self.outcome(of: states, enrolling: !site.pairingCode.isEmpty) }
            group.addTask {
                guard let awaited = await waitOutDeadline(of: session) else { return nil }
                guard let arrival = awaited else {
                    return .failure(EnrolmentError(.noAnswer, "nothing answered within \(deadline)"))
                }
                let seconds = (wallClock.nowMs - arrival.dueByMs) / 1000
                return .failure(
                    EnrolmentError(
                        .noAnswer,
                        "nothing answered within \(deadline) of the box's arrival in this hour's room (the relay"
                            + " moves it there at the hour's turn; it was due \(seconds) s ago)"
                    )
                )
            }
            await session.setPhase(.active)
            var first: Result<HelloOK, EnrolmentError>?
            while first == nil, let next = await group.next() { first = next }
            if case .failure(let error) = first, error.code == .noAnswer, let reason = await session.lastClose {
                // What the last try ran into says more than the deadline: a slow link, the relay's "slow down".
                first = .failure(EnrolmentError(.noAnswer, "\(error.message); the last try: \(reason.message)"))
            }
            // The end of use: a close frame the relay answers, not a dropped socket it logs as 1006.
            await session.close()
            group.cancelAll()
            return first
        }
        // Every task returns nil only when the caller cancelled: say that, not that the box went quiet.
        try Task.checkCancellation()
        guard let outcome else { throw EnrolmentError(.noAnswer, "the session ended before the box answered") }
        return try outcome.get()
    }

    /// Sleeps out the deadline, counted from the box's arrival while the session waits for the relay to bring the box
    /// into this hour's room: the phone knows when it comes, so the wait is not the box's silence. The arrival lies
    /// within the relay's spread, one beat of its heartbeat and the box's rejoin of the hour's start, which bounds the
    /// wait.
    ///
    /// - Returns: nil when cancelled; else the arrival the deadline was counted from, if any.
    private func waitOutDeadline(of session: LiveSession) async -> BoxArrival?? {
        var remaining = deadline
        var awaited: BoxArrival?
        while true {
            guard (try? await clock.sleep(for: remaining)) != nil else { return nil }
            guard case .awaitingBox(let arrival) = await session.connectionState else { return .some(awaited) }
            awaited = arrival
            remaining = .milliseconds(arrival.dueByMs - wallClock.nowMs) + deadline
            guard remaining > .zero else { return .some(awaited) }
        }
    }

    private static let refusedCode =
        "the box did not accept the pairing code: a code is single use, lives 10 minutes and burns after 5 wrong"
        + " guesses; ask the box for a new link"
    private static let refusedDevice =
        "the box no longer knows this phone (it was removed, or the box lost its state); pair it again"

    /// Hello answered, the box's silence after a handshake, or a relay whose TLS identity did not verify (dialling
    /// again would change nothing, so the pairing stops at once and says what failed).
    private static func outcome(
        of states: BusStream<SessionEvent>,
        enrolling: Bool
    ) async -> Result<HelloOK, EnrolmentError>? {
        for await event in states {
            switch event {
            case .connection(.streaming(let hello)): return .success(hello)
            case .connection(.closed(let reason)) where reason.code == .refused:
                return .failure(EnrolmentError(.refused, enrolling ? refusedCode : refusedDevice))
            case .connection(.closed(let reason)) where reason.code == .relayNotTrusted:
                return .failure(EnrolmentError(.relayNotTrusted, reason.message))
            default: continue
            }
        }
        return nil
    }
}
