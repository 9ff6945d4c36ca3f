import FTWBoxProtocol
public import FTWClockSeam
import FTWCrypto
import FTWNoise
public import FTWSessionInterface

/// The simulated home, box and relay that the client is tested and demonstrated against.
///
/// It plays the box's side of every rule in protocol.md: the Noise responder and enrolment, hello and the 1 Hz
/// stream, history tiles with etags, prices, the plan, the API passthrough and commands; and the relay's side too,
/// in-process (``inProcessDialer()``) and over WebSocket (`DemoRelayServer`). The house behind it is deterministic
/// from the wall clock, so closed history never changes. Every request frame it decodes is kept in
/// ``receivedRequests`` for tests to compare with the client's own log.
///
/// ## Concurrency
/// One actor owns all of it; handling a frame never suspends, so no state is read across an `await`. Time comes
/// only from the injected clocks. ``run()`` is the service: the 1 Hz pulse and the timer behind every delayed
/// delivery (relay latency, API service time, history tiles) — run it, or nothing that waits ever happens.
public actor SimulatedBox {
    let configuration: DemoBoxConfiguration
    let clock: any Clock<Duration>
    let wallClock: any WallClock
    let metronome: Metronome
    /// The box's keys; kept by the state folder of `ftw-demobox`.
    public nonisolated let identity: DemoBoxIdentity
    var prices: PriceBook
    let planner: Planner

    var uptime: BoxUptime
    var relayModel: RelayModel
    /// Which ``scheduleRelayTurn()`` is current: an older look the relay asked for does nothing.
    var relayTurnGeneration = 0
    var jobs = TimedJobs<BoxJob>()
    var relayLatency: Duration
    var sessions: [AppSession] = []
    var nextSessionNumber = 1
    var enrolment: Enrolment
    var enrolmentWatchers: [AsyncStream<[EnrolledDevice]>.Continuation] = []
    var burntCodeWatchers: [AsyncStream<Int>.Continuation] = []
    var house: LiveHouse
    var ledger: Ledger
    var plan = PlanRecord()
    var planQuarter: Int64 = .min
    var controlRev: UInt64 = 1
    var pricesLate: Bool
    /// While set, the streams stay open and send no beats until this moment on the metronome; nil while beating.
    var silentUntil: Duration?
    var received: [ReceivedRequest] = []
    var cloud = CloudFeed()
    var lastStep: Duration = .zero
    /// What `hello_ok.box.build` says; ``update(build:)`` changes it.
    public private(set) var build: String
    var readFaults = ReadFaults()
    var historyGeneration = 0
    var leaseCount = 0
    var lanHint = ""
    var schedules: [String: APIDocuments.ChargeGoal] = [:]
    let wakeups: AsyncStream<Duration>
    let wakeupSink: AsyncStream<Duration>.Continuation
    var isRunning = false
    /// The idle pulse's wait, resumed by its own timer or by someone arriving.
    var idleWaiter: CheckedContinuation<Void, Never>?
    var idleEndedByArrival = false

    /// Makes a box that starts now on `clock` (uptime, delays, the pulse) and reads `wallClock` for everything a
    /// person reads as a time (prices, the plan, history, the sun).
    public init(configuration: DemoBoxConfiguration, clock: any Clock<Duration>, wallClock: any WallClock) {
        self.configuration = configuration
        self.clock = clock
        self.wallClock = wallClock
        metronome = Metronome(clock: clock)
        identity = configuration.identity ?? .generate()
        let now = wallClock.nowMs
        let zone = LocalZone(identifier: configuration.timeZone)
        let model = HouseModel(zone: zone)
        var ledger = Ledger(house: model, installedAtMs: now - HistoryResolution.fiveMinutes.retentionMs)
        var house = LiveHouse(model: model, storedWh: ledger.storedWh(atMs: now), mode: .plannerArbitrage)
        house.step(wallMs: now, uptimeMs: configuration.uptimeAtStartMs, seconds: 0, plannedBatteryW: nil)
        self.house = house
        prices = PriceBook(
            zone: zone,
            zoneName: configuration.priceZone,
            currency: configuration.currency,
            publishMsIntoDay: Int64(configuration.pricePublish.hour * 60 + configuration.pricePublish.minute) * 60_000,
            firstDayStartMs: zone.dayStart(atMs: ledger.installedAtMs)
        )
        self.ledger = ledger
        planner = Planner(house: model, prices: prices, ceilingW: nil)
        uptime = BoxUptime(clock: clock, startMs: configuration.uptimeAtStartMs)
        relayLatency = configuration.relayLatency
        pricesLate = configuration.pricesLate
        enrolment = Enrolment(devices: configuration.enrolledDevices)
        relayModel = RelayModel(
            wallClock: wallClock,
            secret: identity.rendezvousSecret,
            schedule: configuration.relaySchedule,
            beat: configuration.relayBeat,
            joinAllowance: configuration.joinAllowance
        )
        build = configuration.build
        let (stream, sink) = AsyncStream.makeStream(of: Duration.self)
        wakeups = stream
        wakeupSink = sink
    }

    /// The box's Noise static public key, which every enrolment link carries.
    public nonisolated var boxStaticPublicKey: [UInt8] { identity.staticPublicKey }

    /// The secret the relay room's handle is derived from.
    public var rendezvousSecret: [UInt8] { identity.rendezvousSecret }

    /// Box uptime now: what every age, lease and deadline on the wire is measured in.
    public var uptimeMs: Int64 { uptime.nowMs }

    /// The app side of the in-process relay room: each dial joins the room as an app stream, without a join path
    /// (no allowance or epoch applies).
    public nonisolated func inProcessDialer() -> any CarrierDialer {
        InProcessDialer(box: self)
    }

    /// The app side of the in-process relay room, joined as a phone joins the real relay: each dial asks for
    /// `path()` (`/r/<epoch>/<handle>/app`), so the household's join allowance, the epoch (4409) and the handle are
    /// judged as over WebSocket, and every close the relay hands the phone is told to `noteClose` (as a WebSocket
    /// carrier tells its rendezvous), so a 4409 or 4410 corrects the next path. `boxArrival` says, as the
    /// rendezvous does, when the relay brings the box into the room at the hour's turn.
    public nonisolated func relayDialer(
        path: @escaping @Sendable () -> String,
        noteClose: @escaping @Sendable (Int, String) -> Void,
        boxArrival: @escaping @Sendable () -> BoxArrival? = { nil }
    ) -> any CarrierDialer {
        InProcessDialer(
            box: self,
            joinPath: InProcessDialer.JoinPath(path: path, noteClose: noteClose, boxArrival: boxArrival)
        )
    }

    /// A fresh 16-byte pairing code: single use, valid 10 minutes of wall clock, burnt after 5 wrong guesses.
    ///
    /// - Parameter role: What the phone that spends it becomes (the first phone ever is an owner regardless).
    public func mintPairingCode(role: String = "owner") -> [UInt8] {
        let code = SecureRandom.bytes(count: Enrolment.codeSize)
        enrolment.mint(code: code, role: role, nowMs: wallClock.nowMs)
        return code
    }

    /// The QR code's link with a freshly minted owner code: `https://app.ftw.energy/p#v2.<pub>.<code>.<lan>.<secret>`.
    ///
    /// - Parameter lanHint: Where the box answers on the LAN, such as `127.0.0.1:8080`; also used by the links
    ///   `POST /api/app-link/pairing` hands out.
    public func enrolmentURL(lanHint: String) -> String {
        self.lanHint = lanHint
        return identity.enrolmentURL(pairingCode: mintPairingCode(), lanHint: lanHint)
    }

    /// The phones the box admits.
    public var enrolledDevices: [EnrolledDevice] { enrolment.devices }

    /// Every request frame decoded so far (`plan.get`, `price.get`, `hist.query`, `api.req`, `cmd`), in arrival
    /// order across all sessions.
    public var receivedRequests: [ReceivedRequest] { received }

    /// The enrolled phones, now and after every change: what `ftw-demobox --state` writes to disk.
    public func enrolmentUpdates() -> AsyncStream<[EnrolledDevice]> {
        let (stream, continuation) = AsyncStream.makeStream(of: [EnrolledDevice].self)
        continuation.yield(enrolment.devices)
        enrolmentWatchers.append(continuation)
        return stream
    }

    /// How many pairing codes burnt after 5 wrong guesses since the box started.
    public var burntCodeCount: Int { enrolment.burntCodes }

    /// ``burntCodeCount`` each time a pairing code burns after 5 wrong guesses: the link that carried it can no
    /// longer enrol anyone, so `ftw-demobox` prints a fresh one at once.
    public func burntCodes() -> AsyncStream<Int> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        burntCodeWatchers.append(continuation)
        return stream
    }

    /// The simulated cloud's copy of the live readings: on change, plus a heartbeat.
    public func cloudFeed() -> AsyncStream<CloudMessage> {
        let feed = cloud.subscribe()
        noteArrival()
        return feed
    }

    /// Sets the relay's delay, each direction; deliveries already on their way keep their time and their order.
    public func setRelayLatency(_ latency: Duration) {
        relayLatency = latency
    }

    /// Drops every app stream now, mid-request too, like a lost network: each carrier's `incoming` ends with
    /// `.closed(code: 1006, …)`; with no phone left in the room the box closes its sessions.
    public func cutCarriers() {
        relayModel.cut()
        closeAllSessions()
    }

    /// Keeps every stream open and sends no beat (no `snap`, `delta` or `tick`) for `duration`, or until
    /// ``stopSilence()`` when nil: a box whose stream stalls while its carrier and its API stay up. The streams
    /// resume where they stopped, with whatever changed meanwhile in the next frame.
    public func beSilent(for duration: Duration?) {
        silentUntil = duration.map { metronome.elapsed + $0 } ?? .seconds(Int64.max / 4)
    }

    /// Ends a silence: the next pulse beats again.
    public func stopSilence() {
        silentUntil = nil
    }

    /// Moves the local time at which tomorrow's rates appear, in minutes after midnight.
    public func setPricePublish(minutesIntoDay: Int) {
        prices.publishMsIntoDay = Int64(minutesIntoDay) * 60_000
    }

    /// Makes tomorrow's rates late (never published today) or on time.
    public func setPricesLate(_ late: Bool) {
        pricesLate = late
    }

    /// Makes a device stop (or resume) answering: its `lastOkMs` freezes and its state walks live → lagging →
    /// stale → down; its fields keep their last reading.
    ///
    /// - Parameter source: A source id: `sungrow` (the site meter, fields 2-6) or `easee` (the charger, field 10).
    public func setDeviceQuiet(_ source: String, _ quiet: Bool) {
        house.setQuiet(source, quiet)
    }

    /// Restarts the box: uptime begins again near 0, every session closes, and the phones in the room see the box
    /// leave (`gone`) and come back (`ready`).
    public func reboot() {
        closeAllSessions()
        uptime = BoxUptime(clock: clock, startMs: 0)
        house.forgetAnswers()
        regeneratePlan()
        relay(.toRoom(.control("gone")))
        relayModel.boxLeaves()
        uplinkRejoin(attempt: 0)
    }

    /// Updates the box to `build` and restarts it (``reboot()``): the next `hello_ok` says `box.build: build`, so
    /// a phone asks again what it remembered the old build refusing.
    public func update(build: String) {
        self.build = build
        reboot()
    }

    /// The source ids of the simulated devices: the site meter and the charger.
    public static let sources = [LiveHouse.meter, LiveHouse.charger]

    /// The names of the fields a device answers for (the box holds the others itself), by field id.
    public static var fieldsWithSources: [String] {
        dictionary.sorted { $0.key < $1.key }.compactMap { $0.value.srcId == nil ? nil : $0.value.name }
    }

    /// The device (source id) that answers for the field named `name` (`grid_w`, `ev_w`); nil for a field the box
    /// holds itself or does not stream.
    public static func source(ofFieldNamed name: String) -> String? {
        dictionary.values.first { $0.name == name }?.srcId
    }

    func closeAllSessions() {
        sessions.removeAll()
    }

    func notifyEnrolmentChanged() {
        for watcher in enrolmentWatchers { watcher.yield(enrolment.devices) }
    }

    func notifyCodeBurnt() {
        for watcher in burntCodeWatchers { watcher.yield(enrolment.burntCodes) }
    }
}
