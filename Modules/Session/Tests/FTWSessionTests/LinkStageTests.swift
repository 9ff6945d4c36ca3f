import FTWBoxProtocol
import FTWBus
import FTWSessionInterface
import FTWSessionTestSupport
import Testing

@testable import FTWSession

/// Every move of the link's stage as a function: a stage and an input in, the next stage and what it asks out. No
/// socket, no clock, no session around it.
@Suite("The link's stages, as transitions")
struct LinkStageTests {
    static let carrier = LinkStage.Carrier(generation: 3, dialStarted: .milliseconds(100))
    static let arrival = BoxArrival(movesAtMs: 10_000, dueByMs: 16_000)

    static func channel() throws -> SecureChannel {
        let identity = SessionIdentity(
            appStaticPrivateKey: [UInt8](repeating: 0x22, count: 32),
            boxStaticPublicKey: SessionStateTests.Bench.boxPublicKey
        )
        return try SecureChannel.start(identity).0
    }

    static func attempt(
        hurried: Bool = false,
        silences: Int = 0,
        watchdog: WatchdogMoment? = nil,
        roomDelay: Duration? = nil
    ) -> LinkStage.Attempt {
        var carrier = Self.carrier
        carrier.roomDelay = roomDelay
        return LinkStage.Attempt(
            carrier: carrier,
            approach: LinkStage.Approach(hurried: hurried, silentHandshakes: silences),
            watchdog: watchdog
        )
    }

    static func handshaking(silences: Int = 0, offeredCode: Bool = false) throws -> LinkStage {
        var stage = LinkStage.awaitingRoom(attempt(silences: silences), measuring: false)
        stage.handshakeStarted(channel: try channel(), offeredCode: offeredCode, deadline: .seconds(12))
        return stage
    }

    static func greeting() throws -> LinkStage {
        var stage = try handshaking(silences: 1)
        stage.handshakeDone(number: 7)
        return stage
    }

    static func streaming(subscribed: Bool = true) throws -> LinkStage {
        var stage = try greeting()
        var hello = SampleHello.make()
        hello.subscribed = subscribed
        _ = stage.helloAnswered(hello, beats: BeatWatch(gapMs: 3_500, atMs: 0), firstRequestID: 1)
        return stage
    }

    @Test("dialling: an attachment waits for ready (measuring the link) or for the box; another carrier's is stale")
    func attached() {
        var stage = LinkStage.dialling(generation: 3, dialStarted: .milliseconds(100), approach: .init(), watchdog: nil)
        #expect(stage.attached(4, arrival: nil, elapsed: .seconds(1)) == .stale)
        #expect(stage.isDialling(3))
        #expect(stage.attached(3, arrival: nil, elapsed: .seconds(1)) == .waitForReady)
        guard case .awaitingRoom(_, measuring: true) = stage else {
            Issue.record("not waiting for the room: \(stage)")
            return
        }
        var watched = LinkStage.dialling(Self.attempt(watchdog: .returnToFront))
        #expect(
            watched.attached(3, arrival: Self.arrival, elapsed: .seconds(2)) == .waitForBox(Self.arrival, watched: true)
        )
        guard case .awaitingBox(_, Self.arrival, let attachedAfter) = watched else {
            Issue.record("not awaiting the box: \(watched)")
            return
        }
        #expect(attachedAfter == .milliseconds(1_900))
    }

    @Test("the first message stops a waiting watchdog once; a stage with none has nothing to stop")
    func heard() throws {
        var stage = LinkStage.awaitingRoom(Self.attempt(watchdog: .returnToFront), measuring: true)
        #expect(stage.heard() == true)
        #expect(stage.heard() == false)
        var stream = try Self.streaming()
        #expect(stream.heard() == false)
        #expect(stream.networkChanged() == .watchStream)
        #expect(stream.heard() == true, "after a network change the stream's next message stops the watchdog")
    }

    @Test("ready in the dial's first wait measures the link and starts a handshake that inherits the approach")
    func readyMeasures() {
        var stage = LinkStage.awaitingRoom(Self.attempt(hurried: true, silences: 1), measuring: true)
        #expect(
            stage.roomReady(elapsed: .milliseconds(600), nowMs: 0)
                == .handshake(hurried: true, roomDelay: .milliseconds(500), ended: nil)
        )
        var later = LinkStage.awaitingRoom(Self.attempt(), measuring: false)
        #expect(
            later.roomReady(elapsed: .seconds(30), nowMs: 0) == .handshake(hurried: false, roomDelay: nil, ended: nil)
        )
    }

    @Test(
        "ready for a box that came at the hour's turn judges the link on what it surely took",
        arguments: [
            (Int64(9_000), Duration.milliseconds(4_900)),  // before the move: a box already there, all the dial's
            (17_000, .seconds(1)),  // after the move: the larger of the attachment and the time past its due
            (30_000, .seconds(14)),
        ]
    )
    func readyAfterTheHoursTurn(nowMs: Int64, delay: Duration) {
        var stage = LinkStage.awaitingBox(Self.attempt(), Self.arrival, attachedAfter: .seconds(1))
        #expect(
            stage.roomReady(elapsed: .seconds(5), nowMs: nowMs)
                == .handshake(hurried: false, roomDelay: delay, ended: nil)
        )
    }

    @Test("ready under a running Noise session ends it (the box rejoined) and starts another on the same carrier")
    func readyRejoins() throws {
        var handshaking = try Self.handshaking(silences: 1, offeredCode: true)
        #expect(
            handshaking.roomReady(elapsed: .seconds(9), nowMs: 0)
                == .handshake(hurried: false, roomDelay: nil, ended: .init(offeredCode: true, returned: false))
        )
        #expect(handshaking.approach == .init(silentHandshakes: 1), "the handshake's silences carry over")
        var stream = try Self.streaming()
        #expect(stream.snapArrived() == true)
        #expect(
            stream.roomReady(elapsed: .seconds(9), nowMs: 0)
                == .handshake(hurried: false, roomDelay: nil, ended: .init(offeredCode: false, returned: true))
        )
        guard case .awaitingRoom(let attempt, measuring: false) = stream else {
            Issue.record("not back in the room: \(stream)")
            return
        }
        #expect(attempt.approach == .init() && attempt.carrier.generation == 3)
    }

    @Test(
        "ready with no carrier attached changes nothing",
        arguments: [
            LinkStage.idle, .dialling(LinkStageTests.attempt()), .halted(SessionError(.refused, "x")), .stopped,
            .backingOff(.init(untilMs: 5, because: SessionError(.carrierLost, "x"), approach: .init())),
        ]
    )
    func readyIgnored(stage: LinkStage) {
        var stage = stage
        #expect(stage.roomReady(elapsed: .seconds(1), nowMs: 0) == .ignore)
    }

    @Test("a handshake starts only from the room, carrying the run of silences and the code's offer")
    func handshakeStarts() throws {
        guard case .handshaking(let handshake) = try Self.handshaking(silences: 2, offeredCode: true) else {
            Issue.record("no handshake")
            return
        }
        #expect(handshake.silentHandshakes == 2 && handshake.offeredCode && handshake.junk == 0)
        var dialling = LinkStage.dialling(Self.attempt())
        dialling.handshakeStarted(channel: try Self.channel(), offeredCode: false, deadline: .seconds(3))
        #expect(dialling.isDialling(3))
    }

    @Test("gone ends a running Noise session and leaves the carrier waiting; with none running it is nothing")
    func boxLeft() throws {
        var greeting = try Self.greeting()
        #expect(greeting.boxLeft() == .init(offeredCode: false, returned: false))
        #expect(greeting.number == nil && greeting.carrier?.generation == 3)
        #expect(greeting.boxLeft() == nil)
    }

    @Test("the room's deadline: a carrier waiting for the box (or its arrival) still waits, measuring no more")
    func roomStayedEmpty() throws {
        var stage = LinkStage.awaitingBox(Self.attempt(), Self.arrival, attachedAfter: .seconds(1))
        #expect(stage.roomStayedEmpty() == true)
        guard case .awaitingRoom(_, measuring: false) = stage else {
            Issue.record("not waiting: \(stage)")
            return
        }
        var handshaking = try Self.handshaking()
        #expect(handshaking.roomStayedEmpty() == false)
    }

    @Test("the end of a carrier says which, what its session was and what the next dial inherits; idle after")
    func end() throws {
        var handshaking = try Self.handshaking(silences: 1, offeredCode: true)
        handshaking.recordSilences(2)
        let ending = handshaking.end()
        let ended = try #require(ending)
        #expect(ended.generation == 3 && ended.session.offeredCode && ended.approach.silentHandshakes == 2)
        guard case .idle = handshaking else {
            Issue.record("not idle: \(handshaking)")
            return
        }
        var dialling = LinkStage.dialling(Self.attempt(hurried: true, watchdog: .returnToFront))
        #expect(dialling.end()?.approach == .init(hurried: true))
        var halted = LinkStage.halted(SessionError(.refused, "x"))
        #expect(halted.end() == nil && halted.halt?.code == .refused)
    }

    @Test("junk counts against the handshake's and hello's deadlines only")
    func junk() throws {
        var handshaking = try Self.handshaking()
        handshaking.junkArrived()
        guard case .handshaking(let handshake) = handshaking else { return }
        #expect(handshake.junk == 1)
        var greeting = try Self.greeting()
        greeting.junkArrived()
        guard case .greeting(let greeted) = greeting else { return }
        #expect(greeted.junk == 1, "the handshake's junk does not carry into the greeting; hello's counts afresh")
    }

    @Test("the greeting's first frame proves the path and the box, once")
    func frameDelivered() throws {
        var greeting = try Self.greeting()
        #expect(greeting.frameDelivered() == true)
        #expect(greeting.frameDelivered() == false)
        var stream = try Self.streaming()
        #expect(stream.frameDelivered() == false, "a stream is up only on a delivered hello_ok")
    }

    @Test("hello_ok: a booting box keeps the greeting; a box that is up starts the stream, subscribing once")
    func hello() throws {
        var greeting = try Self.greeting()
        var booting = SampleHello.make()
        booting.mode = "booting"
        let beats = BeatWatch(gapMs: 3_500, atMs: 0)
        #expect(greeting.helloAnswered(booting, beats: beats, firstRequestID: 1) == .booting)
        #expect(greeting.isGreeting && greeting.hello == nil)
        var up = SampleHello.make()
        up.subscribed = false
        #expect(greeting.helloAnswered(up, beats: beats, firstRequestID: 5) == .streaming(subscribe: true))
        #expect(greeting.hello == up && greeting.number == 7 && greeting.beats == beats)
        #expect(greeting.takeRequestID() == 5)
        #expect(greeting.helloAnswered(up, beats: beats, firstRequestID: 1) == .streaming(subscribe: false))
        #expect(greeting.takeRequestID() == 6, "a second hello_ok keeps the session's request ids")
        var idle = LinkStage.idle
        #expect(idle.helloAnswered(up, beats: beats, firstRequestID: 1) == .ignore)
    }

    @Test("beats, the stream's return and request ids belong to a stream; a greeting has only its return")
    func streamOnly() throws {
        var greeting = try Self.greeting()
        #expect(
            greeting.beat(atMs: 10) == nil && greeting.judgeBeats(atMs: 10) == nil && greeting.takeRequestID() == nil
        )
        #expect(greeting.snapArrived() && !greeting.snapArrived())
        var stream = try Self.streaming()
        #expect(stream.beat(atMs: 10) == .live(sinceMs: 10))
        #expect(stream.judgeBeats(atMs: 3_000)?.againInMs == 510)
        #expect(stream.judgeBeats(atMs: 3_600)?.change == .stale(sinceMs: 3_510, lastBeatMs: 10))
    }

    @Test("a network change: a live stream is watched, anything else redials, watched as it was")
    func networkChanged() throws {
        var stream = try Self.streaming()
        #expect(stream.networkChanged() == .watchStream)
        #expect(stream.watchdogFired() == .networkChange)
        #expect(stream.watchdogFired() == nil, "the watchdog fires once")
        var dialling = LinkStage.dialling(Self.attempt(watchdog: .returnToFront))
        #expect(dialling.networkChanged() == .redial(watching: .returnToFront))
        var greeting = try Self.greeting()
        #expect(greeting.networkChanged() == .redial(watching: nil))
    }

    @Test("what the next dial inherits: the run's approach before a handshake is done, nothing after one")
    func approach() throws {
        #expect(
            LinkStage.dialling(Self.attempt(hurried: true, silences: 1)).approach
                == .init(hurried: true, silentHandshakes: 1)
        )
        #expect(try Self.handshaking(silences: 1).approach == .init(silentHandshakes: 1))
        #expect(try Self.greeting().approach == .init())
        #expect(try Self.streaming().approach == .init())
        #expect(LinkStage.halted(SessionError(.refused, "x")).approach == nil)
        #expect(LinkStage.stopped.approach == nil && LinkStage.stopped.isStopped)
    }
}
