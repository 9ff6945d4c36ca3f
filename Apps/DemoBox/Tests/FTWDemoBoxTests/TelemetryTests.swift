import FTWBoxProtocol
import FTWDemoBox
import FTWNoise
import Testing

@Suite struct TelemetryTests {
    @Test func theStreamSendsOneFixedSizeLaneZeroFrameASecondWithSeqFromOne() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            await world.advance(by: .seconds(12))
            let stream = await phone.received
            #expect(stream.count == 12)
            #expect(stream.allSatisfy { $0.type == "tick" || $0.type == "delta" })
            #expect(stream.compactMap(Samples.seq) == Array(1...12))
            #expect(stream.allSatisfy { $0.frame.lane == .control && $0.frame.bucket == 512 })
            #expect(await phone.wireSizes == Array(repeating: 512 + NoiseTransport.overhead, count: 12))
            let uptimes = stream.compactMap(Samples.uptime)
            #expect(zip(uptimes, uptimes.dropFirst()).allSatisfy { $1 - $0 == 1000 })
            #expect(stream.contains { $0.type == "tick" } && stream.contains { $0.type == "delta" })
        }
    }

    @Test func aDeltaCarriesOnlyWhatChangedSinceTheLastFrame() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.enrolledPhone()
            try await phone.send(Samples.hello())
            await world.advance(by: .seconds(30))
            let received = await phone.received
            guard case .snap(let snap)? = received.dropFirst().first?.message else {
                Issue.record("no snap")
                return
            }
            var fields = snap.fields
            for frame in Samples.stream(received) {
                guard case .delta(let delta)? = frame.message else { continue }
                #expect(!delta.fields.isEmpty || delta.sources != nil)
                for (fid, value) in delta.fields {
                    #expect(fields[fid] != value, "field \(fid) was sent unchanged")
                    fields[fid] = value
                }
            }
        }
    }

    @Test func theSnapshotDescribesTheSevenFieldsAndBothDrivers() async throws {
        try await BoxWorld.run { world in
            let snap = try #require(try await world.helloedPhone().snap)
            #expect(snap.dict.keys.sorted() == [1, 2, 3, 4, 5, 6, 10])
            #expect(snap.dict.filter { $0.value.srcId == "sungrow" }.keys.sorted() == [2, 3, 4, 5, 6])
            #expect(snap.dict[1]?.srcId == nil && snap.dict[10]?.srcId == nil)
            #expect(snap.fields.keys.sorted() == [1, 2, 3, 4, 5, 6, 10])
            #expect(snap.fields[2] == snap.fields[6]! + snap.fields[4]! + snap.fields[3]! + snap.fields[10]!)
            #expect(snap.fields[3]! <= 0)
            #expect(Set(snap.sources.keys) == Set(SimulatedBox.sources))
            #expect(
                snap.sources.values.allSatisfy { $0.kind == "driver" && $0.state == .live && $0.staleAfterMs == 60_000 }
            )
            #expect(snap.dispatchBlockedBy.isEmpty)
        }
    }

    @Test func atPointTwoHertzEveryFifthPulseSendsAFrame() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone(sub: Sub(hz: 0.2))
            await world.advance(by: .seconds(20))
            let stream = await phone.received
            #expect(stream.compactMap(Samples.seq) == [1, 2, 3, 4])
            let uptimes = stream.compactMap(Samples.uptime)
            #expect(zip(uptimes, uptimes.dropFirst()).allSatisfy { $1 - $0 == 5000 })
        }
    }

    @Test func pointTwoAsASingleFloatIsNotPointTwoSoTheStreamStaysAtOneHertz() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let single = Envelope(type: "sub", body: ["bucket": 512, "hz": .float(Double(Float(0.2)))])
            try await phone.send(envelope: single, lane: .control)
            await world.advance(by: .seconds(5))
            #expect(await phone.received.count == 5)
        }
    }

    @Test func theFirstSubFixesTheBucketAndALaterOneOnlyTheCadence() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone(sub: Sub(bucket: 256, hz: 1))
            await world.advance(by: .seconds(3))
            try await phone.send(.sub(Sub(bucket: 512, hz: 0.2)))
            await world.advance(by: .seconds(10))
            let stream = await phone.received
            #expect(stream.compactMap(Samples.seq) == [1, 2, 3, 4, 5])
            #expect(stream.allSatisfy { $0.frame.bucket == 256 })
            #expect(await phone.wireSizes.allSatisfy { $0 == 256 + NoiseTransport.overhead })
        }
    }

    @Test(arguments: [0, 128, 300, 1024])
    func aBucketOtherThan256Or512Means512(bucket: Int) async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone(sub: Sub(bucket: bucket, hz: 1))
            await world.advance(by: .seconds(2))
            #expect(await phone.received.allSatisfy { $0.frame.bucket == 512 })
        }
    }

    @Test func nothingStreamsBeforeTheFirstSub() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.enrolledPhone()
            try await phone.send(Samples.hello(sub: nil))
            await world.advance(by: .seconds(5))
            #expect(await phone.received.map(\.type) == ["hello_ok"])
            try await phone.send(.sub(Sub()))
            await world.advance(by: .seconds(1))
            let types = await phone.received.map(\.type)
            #expect(
                types.prefix(2) == ["hello_ok", "snap"] && types.count == 3 && ["tick", "delta"].contains(types[2])
            )
        }
    }

    @Test func aQuietDeviceWalksFromLiveThroughLaggingAndStaleToDown() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            await world.box.setDeviceQuiet("sungrow", true)
            await world.advance(by: .seconds(400))
            var states: [SourceState] = []
            var lastOk: Set<Int64> = []
            var meterFields: [[Int: Int64]] = []
            for frame in await phone.received {
                guard case .delta(let delta)? = frame.message else { continue }
                if let meter = delta.sources?["sungrow"] {
                    states.append(meter.state)
                    lastOk.insert(meter.lastOkMs)
                }
                meterFields.append(delta.fields.filter { (2...6).contains($0.key) })
            }
            #expect(states == [.lagging, .stale, .down])
            #expect(lastOk.count == 1)
            #expect(meterFields.allSatisfy { $0.isEmpty })
        }
    }

    @Test func theSiteMeterGoingStaleBlocksDispatch() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            await world.box.setDeviceQuiet("sungrow", true)
            await world.advance(by: .seconds(62))
            let blocked = await phone.received.compactMap { frame -> [String]? in
                guard case .delta(let delta)? = frame.message else { return nil }
                return delta.sources == nil ? nil : delta.dispatchBlockedBy
            }
            #expect(blocked == [["sungrow"]])
        }
    }

    @Test func theFloorSeesOnlyTheFrozenCore() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.enrolledPhone()
            try await phone.send(Samples.hello(proto: ProtoRange(min: 0, max: 0)))
            await world.settle()
            let received = await phone.received
            guard case .helloOK(let answer)? = received.first?.message, case .snap(let snap)? = received.last?.message
            else {
                Issue.record("no hello_ok and snap")
                return
            }
            #expect(answer.proto == 0 && answer.mode == "floor" && answer.caps == [.statusCore])
            #expect(answer.hint == "app_update")
            #expect(snap.fields[10] == nil && snap.dict[10] == nil && snap.fields[2] != nil)
        }
    }

    @Test(arguments: [
        (ProtoRange(min: 0, max: 7), 1), (ProtoRange(min: 0, max: 1), 1), (ProtoRange(min: -3, max: -1), 0),
    ])
    func theBoxAnswersTheNewestVersionItSharesAndNeverRefusesAnOldApp(range: ProtoRange, expected: Int) async throws {
        try await BoxWorld.run { world in
            let phone = try await world.enrolledPhone()
            try await phone.send(Samples.hello(sub: nil, proto: range))
            await world.settle()
            guard case .helloOK(let answer)? = await phone.received.first?.message else {
                Issue.record("no hello_ok")
                return
            }
            #expect(answer.proto == expected)
        }
    }

    @Test func anUndecodableHelloGetsNoAnswer() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.enrolledPhone()
            try await phone.send(envelope: Envelope(type: "hello", body: ["proto": "new"]), lane: .control)
            await world.settle()
            #expect(await phone.received.isEmpty)
        }
    }
}
