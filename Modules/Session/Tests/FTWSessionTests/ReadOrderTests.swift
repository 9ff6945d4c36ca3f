import FTWBoxProtocol
import FTWClockSeam
import FTWClockSeamTesting
import FTWSessionInterface
import FTWSessionTestHarness
import Testing

/// The one API slot (cache.md §2): one read on the wire, the rest in ReadOrder, a display frame's wait, a person
/// first, equal reads shared.
@Suite struct ReadOrderTests {
    @Test func readsAskedInTheSameMomentLeaveAsChargersPrefsPlanStatus() async throws {
        try await SessionWorld.run { world in
            await world.comeToFront()
            let results = try await world.withReads { reads in
                let asked: [(ReadRequest, ReadOrder)] = [
                    (Reads.energy, .rest), (Reads.status, .status), (Reads.plan, .plan), (Reads.prefs, .prefs),
                    (Reads.chargers, .chargers),
                ]
                for (request, order) in asked { await reads.ask(request, order: order) }
                await world.advance(by: .seconds(1))
            }
            let sent = await world.box.requests.map(\.read)
            #expect(sent == [Reads.chargers, Reads.prefs, Reads.plan, Reads.status, Reads.energy])
            let failures = await results.settled.filter { $0.result.errorCode != nil }
            #expect(failures.isEmpty)
        }
    }

    @Test func oneReadIsOnTheWireAtATime() async throws {
        try await SessionWorld.run(setUp: ScriptedBox.holdsAnswers) { world in
            await world.comeToFront()
            _ = try await world.withReads { reads in
                for request in [Reads.chargers, Reads.prefs, Reads.plan, Reads.status] {
                    await reads.ask(request, order: .rest)
                    await world.advance(by: .seconds(1))
                }
                await reads.ask(Reads.energy, order: .person)
                await world.advance(by: .seconds(1))
                #expect(await world.box.requests.count == 1)
                await world.box.configure { $0.holding = false }
                await world.box.answerHeld()
                await world.advance(by: .seconds(1))
            }
            let sent = await world.box.requests.map(\.read)
            #expect(sent == [Reads.chargers, Reads.energy, Reads.prefs, Reads.plan, Reads.status])
        }
    }

    @Test func anIdleSlotWaitsOneDisplayFrameButAPersonsReadDoesNot() async throws {
        try await SessionWorld.run { world in
            await world.comeToFront()
            _ = try await world.withReads { reads in
                await reads.ask(Reads.prices, order: .person)
                await world.advance(by: .seconds(1))
                await reads.ask(Reads.chargers, order: .chargers)
                await world.advance(by: .seconds(1))
            }
            let times = await world.box.requests.map { $0.atMs - SessionWorld.originMs }
            #expect(times == [0, 1_016])
        }
    }

    @Test func aPersonsReadGoesFirstAndWaitsOnlyForTheReadOnTheWire() async throws {
        try await SessionWorld.run(setUp: ScriptedBox.holdsAnswers) { world in
            await world.comeToFront()
            _ = try await world.withReads { reads in
                await reads.ask(Reads.energy, order: .rest)
                await world.advance(by: .seconds(1))
                await reads.ask(Reads.chargers, order: .chargers)
                await reads.ask(Reads.status, order: .status)
                await reads.ask(Reads.prices, order: .person)
                await world.advance(by: .seconds(1))
                #expect(await world.box.requests.map(\.read) == [Reads.energy])
                await world.box.configure { $0.holding = false }
                await world.box.answerHeld()
                await world.simulation.settle()
                let answeredAt = world.elapsedMs
                await world.advance(by: .seconds(1))
                let sent = await world.box.requests
                #expect(sent.map(\.read) == [Reads.energy, Reads.prices, Reads.chargers, Reads.status])
                #expect(sent[1].atMs - SessionWorld.originMs == answeredAt)
            }
        }
    }

    @Test func aReadEqualToTheOneOnTheWireSharesItsFrameAndItsTiles() async throws {
        try await SessionWorld.run(setUp: ScriptedBox.holdsAnswers) { world in
            await world.comeToFront()
            let first = Tally<String>()
            let second = Tally<String>()
            let results = try await world.withReads { reads in
                await reads.ask(Reads.history, order: .rest, onChunk: { first.note($0.tileId) })
                await world.advance(by: .seconds(1))
                await reads.ask(Reads.history, order: .status, onChunk: { second.note($0.tileId) })
                await world.box.configure { $0.holding = false }
                await world.box.answerHeld()
                await world.advance(by: .seconds(1))
            }
            #expect(await world.box.requests.count == 1)
            let answers = await results.results(of: Reads.history)
            #expect(answers.count == 2)
            #expect(answers.allSatisfy { (try? $0.get()) != nil })
            #expect(first.seen == ["tile-0", "tile-1"])
            #expect(second.seen == ["tile-0", "tile-1"])
        }
    }

    @Test func aLaterEqualReadUpgradesTheQueuedOneAndBothAreAnswered() async throws {
        try await SessionWorld.run(setUp: ScriptedBox.holdsAnswers) { world in
            await world.comeToFront()
            let results = try await world.withReads { reads in
                await reads.ask(Reads.energy, order: .rest)
                await world.advance(by: .seconds(1))
                await reads.ask(Reads.status, order: .status)
                await reads.ask(Reads.chargers, order: .rest)
                await reads.ask(Reads.chargers, order: .chargers)
                await world.box.configure { $0.holding = false }
                await world.box.answerHeld()
                await world.advance(by: .seconds(1))
            }
            #expect(await world.box.requests.map(\.read) == [Reads.energy, Reads.chargers, Reads.status])
            #expect(await results.results(of: Reads.chargers).count == 2)
        }
    }

    /// cache.md §2: a person's read equal to one queued in the same moment joins it and puts it first, at once: one
    /// frame for both callers, before the reads it was queued behind, with no display frame's wait.
    @Test func aPersonsReadJoinsTheQueuedEqualReadAndItLeavesFirstAtOnce() async throws {
        try await SessionWorld.run { world in
            await world.comeToFront()
            let results = try await world.withReads { reads in
                await reads.ask(Reads.chargers, order: .chargers)
                await reads.ask(Reads.prefs, order: .prefs)
                await reads.ask(Reads.plan, order: .plan)
                await reads.ask(Reads.plan, order: .person)
                await world.advance(by: .seconds(1))
            }
            let sent = await world.box.requests
            #expect(sent.map(\.read) == [Reads.plan, Reads.chargers, Reads.prefs])
            #expect(sent.first?.atMs == SessionWorld.originMs, "a person's read skips the display frame")
            #expect(await results.results(of: Reads.plan).count == 2)
        }
    }

    @Test func aReadAskedWhileNoSessionIsUpWaitsForTheNext() async throws {
        try await SessionWorld.run { world in
            _ = try await world.withReads { reads in
                await reads.ask(Reads.chargers, order: .chargers)
                await world.advance(by: .seconds(30))
                #expect(await world.box.requests.isEmpty)
                await world.comeToFront()
                await world.advance(by: .seconds(1))
            }
            #expect(await world.box.requests.map(\.read) == [Reads.chargers])
        }
    }
}
