import FTWBoxProtocol
import FTWDemoBox
import Testing

@Suite struct PriceTests {
    /// Local midnight starting 2026-12-02 in Stockholm (UTC+1).
    static let midnight: Int64 = 1_796_166_000_000
    static let day: Int64 = 86_400_000

    private static func price(_ answers: [TestPhone.Received]) -> Price? {
        guard case .price(let price)? = answers.first?.message else { return nil }
        return price
    }

    private static func ask(_ world: BoxWorld, from: Int64, to: Int64) async throws -> (Price?, TestPhone.Received?) {
        let phone = try await world.streamingPhone()
        let id = try await phone.ask(.priceGet(PriceGet(fromMs: from, toMs: to)))
        await world.settle()
        let answers = await phone.answers(to: id)
        return (Self.price(answers), answers.first)
    }

    /// Slots that follow each other without a hole, whatever their length.
    private static func contiguous(_ slots: [PriceSlot]) -> Bool {
        zip(slots, slots.dropFirst()).allSatisfy { $0.startMs + $0.durationMs == $1.startMs }
    }

    @Test func beforeThePublishTimeOnlyTodayIsThereAndTheTwoDayWindowIsStale() async throws {
        try await BoxWorld.run { world in
            let (answer, frame) = try await Self.ask(world, from: Self.midnight, to: Self.midnight + 2 * Self.day)
            let price = try #require(answer)
            #expect(price.stale)
            #expect(price.zone == "SE3" && price.currency == "SEK")
            #expect(price.slots.first?.startMs == Self.midnight)
            #expect(price.slots.last.map { $0.startMs + $0.durationMs } == Self.midnight + Self.day)
            #expect(Self.contiguous(price.slots))
            #expect(price.slots.allSatisfy { $0.totalMinor > $0.spotMinor })
            #expect(frame?.frame.lane == .bulk)
        }
    }

    @Test func atThePublishTimeTomorrowAppears() async throws {
        let halfAMinuteBefore = Self.midnight + 13 * 3_600_000 - 30_000
        try await BoxWorld.run(originMs: halfAMinuteBefore) { world in
            let window = (Self.midnight, Self.midnight + 2 * Self.day)
            let (before, _) = try await Self.ask(world, from: window.0, to: window.1)
            await world.advance(by: .seconds(30))
            let (after, frame) = try await Self.ask(world, from: window.0, to: window.1)
            #expect(before?.stale == true)
            let price = try #require(after)
            #expect(!price.stale)
            #expect(price.slots.last.map { $0.startMs + $0.durationMs } == window.1)
            #expect(Self.contiguous(price.slots))
            #expect(frame?.frame.bucket == 16384)
        }
    }

    @Test func latePricesStayStaleUntilTheyArrive() async throws {
        var configuration = DemoBoxConfiguration()
        configuration.pricesLate = true
        try await BoxWorld.run(originMs: Self.midnight + 15 * 3_600_000, configuration: configuration) { world in
            let window = (Self.midnight, Self.midnight + 2 * Self.day)
            let (late, _) = try await Self.ask(world, from: window.0, to: window.1)
            #expect(late?.stale == true)
            #expect(late?.slots.last.map { $0.startMs + $0.durationMs } == Self.midnight + Self.day)
            await world.box.setPricesLate(false)
            let (arrived, _) = try await Self.ask(world, from: window.0, to: window.1)
            #expect(arrived?.stale == false)
        }
    }

    @Test func thePublishTimeIsAKnob() async throws {
        var configuration = DemoBoxConfiguration()
        configuration.pricePublish = (hour: 11, minute: 0)
        try await BoxWorld.run(configuration: configuration) { world in
            let (price, _) = try await Self.ask(world, from: Self.midnight, to: Self.midnight + 2 * Self.day)
            #expect(price?.stale == false)
        }
    }

    @Test func theSlotRunningAtTheStartOfTheWindowIsIncluded() async throws {
        try await BoxWorld.run { world in
            let (answer, _) = try await Self.ask(world, from: world.nowMs, to: world.nowMs + 3_600_000)
            let price = try #require(answer)
            let first = try #require(price.slots.first)
            #expect(first.startMs <= world.nowMs && world.nowMs < first.startMs + first.durationMs)
            #expect(!price.stale)
        }
    }

    @Test func aLongWindowIsCutToOneFrameAndMarkedStale() async throws {
        try await BoxWorld.run { world in
            let from = Self.midnight - 10 * Self.day
            let (answer, frame) = try await Self.ask(world, from: from, to: Self.midnight + 3_600_000)
            let price = try #require(answer)
            #expect(price.stale)
            #expect(price.slots.first?.startMs == from)
            #expect(Self.contiguous(price.slots) && price.slots.count < 8 * 96)
            #expect(frame?.frame.bucket == 16384)
        }
    }

    @Test func anEmptyWindowIsAnUnknownOp() async throws {
        try await BoxWorld.run { world in
            let (price, frame) = try await Self.ask(world, from: Self.midnight, to: Self.midnight)
            #expect(price == nil)
            #expect(Samples.error(frame)?.code == .unknownOp)
            #expect(Samples.error(frame)?.args == ["t": "price.get"])
        }
    }

    @Test func aPriceGetWithoutAnIdOrWithAFloatTimeGetsNothing() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            try await phone.send(.priceGet(PriceGet(fromMs: Self.midnight, toMs: Self.midnight + Self.day)))
            try await phone.send(envelope: Envelope(type: "price.get", id: 3, body: ["fromMs": 1.5, "toMs": 2]))
            await world.settle()
            #expect(await phone.received.isEmpty)
        }
    }
}

@Suite struct PlanTests {
    private static func plan(_ world: BoxWorld, phone: TestPhone) async throws -> Plan? {
        let id = try await phone.ask(.planGet)
        await world.settle()
        guard case .plan(let plan)? = await phone.answers(to: id).first?.message else { return nil }
        return plan
    }

    @Test func thePlanIsNinetySixQuartersFromTheCurrentOne() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let plan = try #require(try await Self.plan(world, phone: phone))
            let quarter = world.nowMs - world.nowMs % 900_000
            #expect(plan.slots.count == 96)
            #expect(plan.slots.first?.startMs == quarter)
            #expect(zip(plan.slots, plan.slots.dropFirst()).allSatisfy { $0.startMs + $0.durationMs == $1.startMs })
            #expect(!plan.stale && plan.ceilingW == nil)
            #expect(plan.rev == 1)
            #expect(plan.uptimeMs <= (await world.box.uptimeMs))
        }
    }

    @Test func eachSlotsReasonFollowsTheBoxsRules() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let plan = try #require(try await Self.plan(world, phone: phone))
            for slot in plan.slots {
                switch slot.batteryW {
                case 101...: #expect([PlanReason.solarSurplus, .cheapImport].contains(slot.reason))
                case ...(-101):
                    #expect(slot.reason == (slot.gridW < -100 ? .exportPaid : .expensiveImport))
                default: #expect([PlanReason.reserveHeld, .exportPaid, .idle].contains(slot.reason))
                }
            }
            #expect(Set(plan.slots.map(\.reason)).count == 4)
        }
    }

    @Test func slotPricesAreTheImportPriceWhereThePriceIsKnown() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let plan = try #require(try await Self.plan(world, phone: phone))
            let id = try await phone.ask(.priceGet(PriceGet(fromMs: world.nowMs, toMs: world.nowMs + 86_400_000)))
            await world.settle()
            guard case .price(let price)? = await phone.answers(to: id).first?.message else {
                Issue.record("no price")
                return
            }
            let totals = Dictionary(uniqueKeysWithValues: price.slots.map { ($0.startMs, $0.totalMinor) })
            for slot in plan.slots { #expect(slot.priceMinor == totals[slot.startMs]) }
            #expect(plan.slots.contains { $0.priceMinor == nil })
        }
    }

    @Test func theRevisionMovesEachQuarterAndNotBetween() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let first = try #require(try await Self.plan(world, phone: phone))
            await world.advance(by: .seconds(60))
            let same = try #require(try await Self.plan(world, phone: phone))
            await world.advance(by: .seconds(14 * 60))
            let next = try #require(try await Self.plan(world, phone: phone))
            #expect(same.rev == first.rev)
            #expect(next.rev == first.rev + 1)
            #expect(next.slots.first?.startMs == first.slots.first.map { $0.startMs + 900_000 })
        }
    }
}
