import FTWBoxProtocol
import FTWDemoBox
import Testing

/// The sizes the box's frames land in: what the relay sees of each answer.
@Suite struct FrameSizeTests {
    @Test func eachAnswerLandsInTheBucketItsSizeCallsFor() async throws {
        var configuration = DemoBoxConfiguration()
        configuration.pricePublish = (hour: 0, minute: 0)
        try await BoxWorld.run(configuration: configuration) { world in
            let phone = try await world.enrolledPhone()
            try await phone.send(Samples.hello())
            await world.advance(by: .seconds(10))
            let hello = await phone.received
            let start = world.nowMs
            let midnight: Int64 = 1_796_166_000_000
            let tile = try await phone.ask(
                .histQuery(
                    HistQuery(series: Samples.series, res: .fiveMinutes, fromMs: start - 43_200_000, toMs: start)
                )
            )
            let plan = try await phone.ask(.planGet)
            let price = try await phone.ask(.priceGet(PriceGet(fromMs: midnight, toMs: midnight + 2 * 86_400_000)))
            await world.advance(by: .milliseconds(100))
            let delta = hello.first { $0.type == "delta" }
            let sizes = [
                "hello_ok": hello.first { $0.type == "hello_ok" },
                "snap": hello.first { $0.type == "snap" },
                "delta": delta,
                "tick": hello.first { $0.type == "tick" },
                "tile": await phone.answers(to: tile).first,
                "plan": await phone.answers(to: plan).first,
                "price": await phone.answers(to: price).first,
            ]
            #expect(sizes["hello_ok"]??.frame.bucket == 4096)
            #expect(sizes["snap"]??.frame.bucket == 1024)
            #expect(sizes["tick"]??.frame.bucket == 512)
            #expect(sizes["delta"]??.frame.bucket == 512)
            #expect(sizes["tile"]??.frame.bucket == 4096)
            #expect(sizes["plan"]??.frame.bucket == 16384)
            #expect(sizes["price"]??.frame.bucket == 16384)
            guard case .price(let answer)? = sizes["price"]??.message else { return }
            #expect(!answer.stale)
            #expect(answer.slots.count == 192)
        }
    }
}
