import FTWBus
import FTWClient
import FTWClockSeam
import FTWFixtures
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `ftw-demobox` under many connections, in its own process: its relay serves every socket from one event loop, so
/// idle connections cost it descriptors, never threads, and running out of descriptors with a phone streaming
/// through it is something it survives (a thread per connection made libdispatch trap with SIGILL there).
@Suite struct DemoBoxLoadTests {
    /// A phone paired with the box from its enrolment link, dialling its relay on the real clocks.
    private struct Phone {
        let session: LiveSession
        let recorder: EventRecorder

        init(link: String, port: Int) throws {
            let enrolment = try EnrolmentURL(parsing: link)
            let events = EventBus<SessionEvent>()
            session = LiveSession(
                dialer: RelayDialer(
                    host: "127.0.0.1",
                    port: port,
                    rendezvousSecret: enrolment.rendezvousSecret,
                    clock: ContinuousClock(),
                    wallClock: SystemWallClock()
                ),
                identity: SessionIdentity(
                    appStaticPrivateKey: DemoWorld.appPrivateKey,
                    boxStaticPublicKey: enrolment.boxStaticPublicKey,
                    payload: enrolment.pairingCode
                ),
                configuration: SessionConfiguration(build: "load"),
                clock: ContinuousClock(),
                wallClock: SystemWallClock(),
                random: SystemRandomSource(),
                log: DiscardingLogSink(),
                events: events
            )
            recorder = EventRecorder(events.subscribe(), wallClock: SystemWallClock())
        }

        /// Live frames received so far.
        func frames() async -> Int {
            await recorder.events.count { if case .telemetry = $0 { true } else { false } }
        }

        /// Waits (a minute at most) until `more` live frames arrived after the first `seen`.
        func waitForFrames(after seen: Int, more: Int, _ what: String) async throws {
            try await TimeLimit.within(.seconds(60), on: ContinuousClock(), what) {
                await recorder.wait { events in
                    events.count { if case .telemetry = $0 { true } else { false } } >= seen + more
                }
            }
        }
    }

    /// The box's enrolment link and relay port, from the lines it prints.
    private static func start(_ box: DemoBoxChild) async throws -> (link: String, port: Int) {
        var lines = box.lines.makeAsyncIterator()
        let link = try #require(await DemoBoxChild.line(&lines) { $0.hasPrefix("https://app.ftw.energy/p#v2.") })
        let relayLine = try #require(await DemoBoxChild.line(&lines) { $0.hasPrefix("relay: ws://127.0.0.1:") })
        return (link, try #require(Int(relayLine.dropFirst("relay: ws://127.0.0.1:".count))))
    }

    @Test(.enabled(if: DemoBoxChild.executable != nil, "ftw-demobox is not built beside the test bundle (swift build)"))
    func aThousandSilentConnectionsCostTheRelayNoThreads() async throws {
        LoopbackSocket.allowDescriptors(4_096)
        let box = try DemoBoxChild(executable: try #require(DemoBoxChild.executable), state: nil)
        let (_, port) = try await Self.start(box)
        let before = try #require(box.threadCount)
        let silent = try await OwnThread.run { (0..<1_000).map { _ in LoopbackSocket.open(port) } }
        defer { for descriptor in silent where descriptor >= 0 { close(descriptor) } }
        #expect(silent.allSatisfy { $0 >= 0 })
        // A connection the relay has accepted is answered: the last one's answer comes after every silent one was
        // taken (the kernel queues them in order), so the count below sees all thousand held.
        #expect(try await OwnThread.run { LoopbackSocket.statusLine(port: port) } == "HTTP/1.1 101 Switching Protocols")
        let during = try #require(box.threadCount)
        #expect(during <= before + 8, "\(before) threads before, \(during) with 1,000 silent connections")
        #expect(box.isRunning, "the box said: \(box.standardError)")
        #expect(await box.stop() == 0)
    }

    @Test(.enabled(if: DemoBoxChild.executable != nil, "ftw-demobox is not built beside the test bundle (swift build)"))
    func aPhoneStreamingThroughTheRelayOutlivesTheDescriptorLimit() async throws {
        LoopbackSocket.allowDescriptors(4_096)
        let box = try DemoBoxChild(
            executable: try #require(DemoBoxChild.executable),
            state: nil,
            descriptorLimit: 1_024
        )
        let (link, port) = try await Self.start(box)
        let threads = try #require(box.threadCount)
        let phone = try Phone(link: link, port: port)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await phone.session.run() }
            group.addTask { await phone.recorder.run() }
            defer { group.cancelAll() }
            await phone.session.setPhase(.active)
            try await phone.waitForFrames(after: 0, more: 2, "live frames before the flood")

            // More silent connections than the box may hold: its accepts fail with EMFILE while the phone streams.
            let silent = try await OwnThread.run { (0..<1_100).map { _ in LoopbackSocket.open(port) } }
            let starved = try await OwnThread.run { LoopbackSocket.statusLine(port: port, within: 2) }
            #expect(starved.isEmpty, "the box answered past its descriptor limit: \(starved)")
            try await phone.waitForFrames(after: await phone.frames(), more: 3, "live frames at the descriptor limit")
            #expect(box.isRunning, "the box said: \(box.standardError)")
            let during = try #require(box.threadCount)
            #expect(during <= threads + 8, "\(threads) threads before, \(during) at the descriptor limit")

            for descriptor in silent where descriptor >= 0 { close(descriptor) }
            let served = try await OwnThread.run { LoopbackSocket.statusLine(port: port, within: 30) }
            #expect(served == "HTTP/1.1 101 Switching Protocols", "the box said: \(box.standardError)")
            try await phone.waitForFrames(after: await phone.frames(), more: 2, "live frames after the flood")
            await phone.session.close()
        }
        #expect(box.isRunning, "the box said: \(box.standardError)")
        #expect(await box.stop() == 0)
    }
}
