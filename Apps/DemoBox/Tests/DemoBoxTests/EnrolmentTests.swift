import BoxProtocol
import DemoBox
import Testing

@Suite struct EnrolmentTests {
    private static func hello(sub: Sub? = Sub()) -> Message {
        .hello(Hello(app: AppInfo(build: "test"), locales: ["en"], sub: sub))
    }

    @Test func aPairingCodeOpensASessionAndHelloBringsHelloOKThenTheSnapshot() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.enrolledPhone()
            #expect(await phone.isConnected)
            try await phone.send(Self.hello())
            await world.settle()
            let received = await phone.received
            #expect(received.map(\.type) == ["hello_ok", "snap"])
            guard case .helloOK(let answer)? = received.first?.message else {
                Issue.record("no hello_ok")
                return
            }
            #expect(answer.proto == 1)
            #expect(answer.mode == "full")
            #expect(answer.role == .owner)
            #expect(answer.scopes == Scope.all)
            #expect(answer.subscribed)
            #expect(answer.caps.contains(.priceSpot))
            #expect(!answer.caps.contains(.derBattery) && !answer.caps.contains(.statusDrivers))
            #expect(answer.modes.map(\.key) == ModeKey.all.map(\.rawValue))
            #expect(answer.clock.uptimeMs == DemoBoxConfiguration().uptimeAtStartMs)
            #expect(received.map(\.frame.lane) == [.bulk, .bulk])
        }
    }
}
