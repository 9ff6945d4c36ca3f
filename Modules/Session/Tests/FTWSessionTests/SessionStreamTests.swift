import FTWBoxProtocol
import FTWClockSeam
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWSessionTestSupport
import Testing

@Suite struct SessionStreamTests {
    @Test func aReturnDialsShakesHandsSaysHelloAndPublishesTheStream() async throws {
        try await SessionWorld.run { world in
            await world.comeToFront()
            let states = await world.recorder.connectionStates
            #expect(states.count == 3)
            guard case .streaming(let hello) = states.last else {
                Issue.record("no stream: \(states)")
                return
            }
            #expect(hello.proto == 1)
            let events = await world.recorder.events
            #expect(events.contains(.streamReturned(connection: 1)))
            let received = await world.box.received.map(\.message.type)
            #expect(received == ["hello"])
            let answer = await world.read(.plan, order: .plan)
            #expect(answer == .success(.plan(ScriptedBox.samplePlan)))
        }
    }
}
