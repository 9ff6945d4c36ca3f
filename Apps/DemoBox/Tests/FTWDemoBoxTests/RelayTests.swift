import FTWBoxProtocol
import FTWDemoBox
import FTWSessionInterface
import Testing

@Suite struct RelayTests {
    @Test func aPhoneJoiningTheRoomHearsReadyFirst() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.phone()
            #expect(await phone.events == [.control("ready")])
        }
    }

    @Test func aFifthStreamIsClosedAsBusy() async throws {
        try await BoxWorld.run { world in
            for _ in 0..<4 { _ = try await world.phone() }
            let fifth = try await world.phone()
            #expect(await fifth.events == [.closed(code: 4429, reason: "streams")])
            await #expect(throws: SessionError.self) { try await fifth.sendRaw([1, 2, 3]) }
        }
    }

    @Test func theBoxListsExactlyTheRequestFramesInArrivalOrderAcrossSessions() async throws {
        try await BoxWorld.run { world in
            let first = try await world.streamingPhone()
            let second = try await world.streamingPhone()
            let start = world.nowMs
            let plan = try await first.ask(.planGet)
            let prices = try await second.ask(.priceGet(PriceGet(fromMs: start, toMs: start + 3_600_000)))
            try await first.send(.sub(Sub(hz: 0.2)))
            let history = try await second.ask(
                .histQuery(
                    HistQuery(
                        series: ["grid_w"],
                        res: .fiveMinutes,
                        fromMs: 1_796_032_800_000,
                        toMs: 1_796_205_600_000,
                        have: [HaveEntry(tileId: "5m/1/1", etag: "0")]
                    )
                )
            )
            await world.advance(by: .seconds(1))
            let api = try await first.ask(
                .apiReq(APIRequest(method: "GET", path: "/api/energy/daily", query: ["days": "7"]))
            )
            try await second.send(Samples.command(.siteModeSet, ["mode": "idle"], rev: 1, notValidAfterMs: 1))
            try await first.send(envelope: Envelope(type: "plan.v2", id: 77))
            await world.settle()
            let log = await world.box.receivedRequests
            #expect(log.map(\.type) == ["plan.get", "price.get", "hist.query", "api.req", "cmd"])
            #expect(log.map(\.id) == [plan, prices, history, api, nil])
            #expect(log.map(\.connection) == [1, 2, 2, 1, 2])
            #expect(
                log.map(\.detail) == [
                    "plan", "2026-12-02T10:01Z..2026-12-02T11:01Z", "5m 2026-11-30T10:00Z..2026-12-02T10:00Z have=1",
                    "GET /api/energy/daily?days=7", "site.mode.set",
                ]
            )
            #expect(log.map(\.atMs) == [start, start, start, start + 1000, start + 1000])
        }
    }

    @Test func anUnknownTypeWithAnIdIsAnUnknownOpAndWithoutOneIsIgnored() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            try await phone.send(envelope: Envelope(type: "plan.v2", id: 12, body: ["horizonMs": 3_600_000]))
            try await phone.send(envelope: Envelope(type: "plan.v2", body: ["horizonMs": 3_600_000]))
            await world.settle()
            let received = await phone.received
            #expect(received.count == 1)
            #expect(received.first?.envelope.id == 12 && received.first?.frame.lane == .control)
            #expect(Samples.error(received.first)?.args == ["t": "plan.v2"])
        }
    }

    @Test func cuttingTheCarriersDropsEveryStreamMidRequest() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let other = try await world.phone()
            let id = try await phone.ask(.apiReq(APIRequest(method: "GET", path: "/api/loadpoints")))
            await world.settle()
            await world.box.cutCarriers()
            await world.advance(by: .seconds(2))
            for stream in [phone, other] {
                #expect(await stream.events.last == .closed(code: 1006, reason: "connection lost"))
            }
            #expect(await phone.answers(to: id).isEmpty)
            await #expect(throws: SessionError.self) { try await phone.sendRaw([0]) }
            let back = try await world.phone(staticKey: phone.staticKey)
            try await back.startHandshake(payload: [])
            await world.settle()
            #expect(await back.isConnected)
        }
    }

    @Test func theRelaysLatencyDelaysEachDirection() async throws {
        var configuration = DemoBoxConfiguration()
        configuration.relayLatency = .milliseconds(100)
        try await BoxWorld.run(configuration: configuration) { world in
            let phone = try await world.phone()
            #expect(await phone.events.isEmpty)
            await world.advance(by: .milliseconds(100))
            #expect(await phone.events == [.control("ready")])
            let code = await world.box.mintPairingCode()
            try await phone.startHandshake(payload: code)
            await world.advance(by: .milliseconds(199))
            #expect(await !phone.isConnected)
            await world.advance(by: .milliseconds(1))
            #expect(await phone.isConnected)
            await world.box.setRelayLatency(.zero)
            try await phone.send(Samples.hello(sub: nil))
            await world.settle()
            #expect(await phone.received.map(\.type) == ["hello_ok"])
        }
    }

    @Test func aRebootRestartsUptimeAndTheRoomSeesTheBoxLeaveAndReturn() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            await world.advance(by: .seconds(3))
            await world.box.reboot()
            await world.settle()
            #expect(await phone.events == [.control("gone"), .control("ready")])
            await phone.clear()
            await world.advance(by: .seconds(3))
            #expect(await phone.received.isEmpty)
            try await phone.startHandshake(payload: [])
            await world.settle()
            try await phone.send(Samples.hello())
            await world.settle()
            guard case .helloOK(let answer)? = await phone.received.first?.message else {
                Issue.record("no hello_ok after the reboot")
                return
            }
            #expect(answer.clock.uptimeMs < 5000)
            guard case .snap(let snap)? = await phone.received.last?.message else { return }
            // A box that just started has heard from no device: they first answer 5 s into the boot, and until
            // then their readings are the ones it kept, from sources with no answer in this boot.
            #expect(snap.sources.values.allSatisfy { $0.lastOkMs == 0 && $0.state == .never })
            await phone.clear()
            await world.advance(by: .seconds(3))
            let tables = await phone.received.compactMap { frame -> [String: SourceInfo]? in
                if case .delta(let delta) = frame.message { delta.sources } else { nil }
            }
            #expect(tables.last?.values.allSatisfy { $0.lastOkMs >= 5_000 && $0.state == .live } == true, "\(tables)")
        }
    }

    @Test func thePhonesOwnCloseEndsItsStreamAndTheLastOneLeavingClosesTheSessions() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            await phone.carrier.close()
            await world.settle()
            #expect(await phone.events.last == .closed(code: 1000, reason: "closed"))
            let back = try await world.phone(staticKey: phone.staticKey)
            try await back.sendRaw(Array(repeating: 0, count: 200))
            await world.advance(by: .seconds(2))
            #expect(await back.binaryCount == 0)
        }
    }

    @Test func everyPhoneInTheRoomGetsTheBoxsOutputButOpensOnlyItsOwn() async throws {
        try await BoxWorld.run { world in
            let first = try await world.streamingPhone()
            let second = try await world.streamingPhone()
            await first.clear()
            await world.advance(by: .seconds(3))
            for phone in [first, second] {
                #expect(await phone.binaryCount == 6)
                #expect(await phone.received.count == 3)
            }
        }
    }
}

@Suite struct CloudFeedTests {
    /// Every message the feed has sent so far: read until the world is idle, then stop reading.
    private static func drain(_ feed: AsyncStream<CloudMessage>, _ world: BoxWorld) async -> [CloudMessage] {
        await withTaskGroup(of: [CloudMessage].self) { group in
            group.addTask {
                var messages: [CloudMessage] = []
                for await message in feed { messages.append(message) }
                return messages
            }
            await world.settle()
            group.cancelAll()
            return await group.next() ?? []
        }
    }

    @Test func theCloudSendsOnChangeStampedWithItsSendTime() async throws {
        try await BoxWorld.run { world in
            let feed = await world.box.cloudFeed()
            await world.advance(by: .seconds(20))
            let messages = await Self.drain(feed, world)
            #expect(messages.first?.isHeartbeat == false)
            #expect(messages.allSatisfy { !$0.isHeartbeat && $0.fields.keys.sorted() == [1, 2, 3, 4, 5, 6, 10] })
            #expect(
                zip(messages, messages.dropFirst()).allSatisfy { $0.fields != $1.fields && $0.sentAtMs < $1.sentAtMs }
            )
            #expect(messages.allSatisfy { ($0.sentAtMs - BoxWorld.origin) % 1000 == 0 })
            #expect(messages.count < 20)
        }
    }

    @Test func aQuietHomeSendsAHeartbeatAndDropsFieldsWhoseSourceIsNotLive() async throws {
        var configuration = DemoBoxConfiguration()
        configuration.cloudHeartbeat = .seconds(30)
        try await BoxWorld.run(configuration: configuration) { world in
            let feed = await world.box.cloudFeed()
            await world.box.setDeviceQuiet("sungrow", true)
            await world.box.setDeviceQuiet("easee", true)
            await world.advance(by: .seconds(121))
            let messages = await Self.drain(feed, world)
            let beats = messages.filter(\.isHeartbeat)
            #expect(beats.map { $0.sentAtMs - BoxWorld.origin } == [31_000, 61_000, 91_000, 121_000])
            #expect(beats.first?.fields.count == 7)
            #expect(beats.last?.fields.keys.sorted() == [1])
        }
    }
}
