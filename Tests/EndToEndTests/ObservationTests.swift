import FTWBus
import FTWCache
import FTWClient
import FTWClockSeamTesting
import FTWTrace
import Testing

/// Each observation stream a screen draws from, through the client's public face on the simulated demo box: a
/// second launch's first value is what the sealed files drew, then one value per change, never the same value twice
/// in a row, ending when the client closes.
@Suite struct ObservationTests {
    /// No two neighbours equal.
    private static func hasNoRepeats<Value: Equatable>(_ values: [Value]) -> Bool {
        zip(values, values.dropFirst()).allSatisfy { $0 != $1 }
    }

    /// The second launch on the world's folder, observed by `observe` from right after the launch to the close,
    /// while `drive` runs the stay; hands back the values, the client and what `count` counted on the way.
    private static func secondLaunch<Value: Sendable & Equatable>(
        in world: ClientWorld,
        observe: @escaping @Sendable (HeadlessClient) -> ValueObservation<Value>,
        drive: @escaping @Sendable (HeadlessClient) async throws -> Void
    ) async throws -> (values: [Value], client: HeadlessClient, atLaunch: Value) {
        let client = world.client()
        _ = await client.launch()
        let recorded = Recorded<Value>()
        let observer = Task { await recorded.follow(observe(client)) }
        await world.simulation.settle()
        let atLaunch = try #require(recorded.all.first)
        try await world.stay(of: client) { try await drive(client) }
        await observer.value
        return (recorded.all, client, atLaunch)
    }

    @Test func theHomeScreenStartsFromTheSealedFilesGoesLiveAndNeverRepeats() async throws {
        try await ClientWorld.run { world in
            try await world.leaveSealedFiles()
            let (values, client, atLaunch) = try await Self.secondLaunch(
                in: world,
                observe: { $0.observeHomeScreen() },
                drive: { client in
                    try await client.setPhase(.active)
                    client.show(.now)
                    await world.simulation.advance(by: .seconds(12))
                }
            )
            guard case .sealedFiles = atLaunch.freshness else {
                Issue.record("the first value is not from the sealed files: \(atLaunch)")
                return
            }
            #expect(!atLaunch.readings.isEmpty)
            #expect(atLaunch.chargers != nil && atLaunch.planSlots != nil && atLaunch.priceRates != nil)
            #expect(Self.hasNoRepeats(values))
            #expect(values.contains { $0.isLive })
            // Closed now, and the sequence ended: what it gave last is what the screen showed last.
            #expect(client.drawnAtLaunch?.models["snapshot"] == true)
        }
    }

    /// One age-keyed model's stream: the answer from its file first, then exactly one value per answer recorded.
    private static func answers<Answer: Sendable & Equatable>(
        _ model: @escaping @Sendable (HeadlessClient) -> any AskingModel,
        observe: @escaping @Sendable (HeadlessClient) -> ValueObservation<ShownAnswer<Answer>>,
        view: ViewName,
        away: Duration,
        refresh: Bool = false
    ) async throws -> (values: [ShownAnswer<Answer>], answered: Int) {
        try await ClientWorld.run { world in
            try await world.leaveSealedFiles()
            await world.simulation.advance(by: away)
            let answered = Recorded<Int>()
            let (values, _, atLaunch) = try await secondLaunch(
                in: world,
                observe: observe,
                drive: { client in
                    let events = model(client).eventsCounted(into: answered)
                    try await client.setPhase(.active)
                    client.show(view)
                    await world.simulation.advance(by: .seconds(5))
                    if refresh {
                        client.refresh(view)
                        await world.simulation.advance(by: .seconds(5))
                    }
                    events.cancel()
                }
            )
            #expect(atLaunch.stored != nil, "the sealed file held no answer")
            #expect(hasNoRepeats(values))
            return (values, answered.all.count)
        }
    }

    @Test func thePricesStreamGivesTheSealedAnswerThenOnlyWhatARefreshAsked() async throws {
        let (values, answered) = try await Self.answers(
            { $0.prices },
            observe: { $0.observePrices() },
            view: .prices,
            away: .seconds(120),
            refresh: true
        )
        // The day's name still holds after two minutes: the view's return asks nothing; the pull to refresh does.
        #expect(answered == 1)
        #expect(values.count == 2)
        #expect(values[1].stored?.askedAtMs ?? 0 > values[0].stored?.askedAtMs ?? 0)
    }

    @Test func thePlanStreamGivesTheSealedPlanThenTheNextQuartersOnce() async throws {
        let (values, answered) = try await Self.answers(
            { $0.plan },
            observe: { $0.observePlan() },
            view: .plan,
            away: .seconds(20 * 60)
        )
        #expect(answered >= 1)
        #expect(values.count == 1 + answered)
    }

    @Test func theChargersStreamGivesTheSealedListThenTheAnswerPastItsMinute() async throws {
        let (values, answered) = try await Self.answers(
            { $0.chargers },
            observe: { $0.observeChargers() },
            view: .chargers,
            away: .seconds(120)
        )
        #expect(answered == 1)
        #expect(values.count == 2)
    }

    @Test func thePrefsStreamGivesTheSealedPrefsThenTheAnswerPastItsQuarterHour() async throws {
        let (values, answered) = try await Self.answers(
            { $0.prefs },
            observe: { $0.observePrefs() },
            view: .now,
            away: .seconds(20 * 60)
        )
        #expect(answered == 1)
        #expect(values.count == 2)
        #expect(values.allSatisfy { $0.isAvailable })
    }

    @Test func theStatusStreamGivesTheSealedStatusThenTheAnswerPastItsMinute() async throws {
        let (values, answered) = try await Self.answers(
            { $0.status },
            observe: { $0.observeStatus() },
            view: .status,
            away: .seconds(120)
        )
        #expect(answered == 1)
        #expect(values.count == 2)
    }

    @Test func theHistoryStreamStartsFromTheSealedTilesAndNeverRepeats() async throws {
        try await ClientWorld.run { world in
            try await world.leaveSealedFiles()
            await world.simulation.advance(by: .seconds(10 * 60))
            let (values, client, atLaunch) = try await Self.secondLaunch(
                in: world,
                observe: { $0.observeHistory() },
                drive: { client in
                    try await client.setPhase(.active)
                    client.show(.battery)
                    await world.simulation.advance(by: .seconds(10))
                }
            )
            let stepsAtLaunch = atLaunch.columns.reduce(0) { total, column in
                total + column.samples.filter { if case .value = $0 { true } else { false } }.count
            }
            #expect(stepsAtLaunch == (client.drawnAtLaunch?.historySteps ?? -1))
            #expect(stepsAtLaunch > 0)
            #expect(Self.hasNoRepeats(values))
            #expect(values.count > 1, "the return primed nothing the window shows")
            #expect(values.last == (await client.history.window))
        }
    }

    @Test func aNodesTraceStartsFromTheRingFileWithItsGapThenClosesTheGapLive() async throws {
        let battery = try #require(TraceField(named: "battery_w"))
        #expect(battery.unit == "W")
        try await ClientWorld.run { world in
            try await world.leaveSealedFiles()
            await world.simulation.advance(by: .seconds(30))
            let (values, client, atLaunch) = try await Self.secondLaunch(
                in: world,
                observe: { $0.observeTrace(of: battery) },
                drive: { client in
                    try await client.setPhase(.active)
                    client.show(.battery)
                    await world.simulation.advance(by: .seconds(6))
                }
            )
            #expect(atLaunch.field == battery)
            #expect(!atLaunch.samples.isEmpty)
            #expect(atLaunch.samples.allSatisfy { !$0.seen })
            #expect(atLaunch.missed?.untilMs == nil, "the gap closed before anything was live")
            #expect(Self.hasNoRepeats(values))
            let live = try #require(values.last)
            #expect(live.samples.contains { $0.seen })
            let missed = try #require(live.missed)
            #expect(missed.duration(nowMs: client.nowMs) >= .seconds(30))
            #expect(missed.untilMs != nil)
            #expect(live == (await client.trace.trace(of: battery)))
        }
    }
}

extension AskingModel {
    /// Counts every answer the model records into `counter`, until the returned task is cancelled.
    fileprivate func eventsCounted(into counter: Recorded<Int>) -> Task<Void, Never> {
        let events = self.events.subscribe()
        return Task {
            for await event in events {
                if case .answered = event { counter.append(1) }
            }
        }
    }
}
