import FTWBoxProtocol
import FTWClockSeamTesting
import FTWSessionInterface
import FTWSessionTestHarness
import FTWSessionTestSupport
import Testing

/// The contract of `BoxSession`, phase by phase, run with the same bodies against the live session and against
/// the double every model's tests use: a model that passes its tests on the double behaves so on the live session.
@Suite struct SessionContractTests {
    @Test(arguments: ContractSession.allCases)
    func withTheStreamUpEachReadIsAnsweredWithTheBoxsAnswerTyped(_ kind: ContractSession) async throws {
        try await kind.run { stage in
            await stage.streamUp()
            let reads = [Reads.plan, Reads.prices, Reads.history, Reads.chargers]
            let outcomes = await stage.outcomes(of: reads.map { ContractCall(request: $0, order: .rest) }) { _ in
                await stage.settle()
            }
            #expect(outcomes == reads.map { .answered(ContractAnswers.answer(to: $0)) })
            let session = stage.session
            let plan = Tally<Plan>()
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    if let answer = try? await session.read(.plan, order: .person) { plan.note(answer) }
                }
                await stage.settle()
            }
            #expect(plan.seen == [ScriptedBox.samplePlan], "read(.plan) is a Plan")
        }
    }

    @Test(arguments: ContractSession.allCases)
    func aReadAskedWhileDiallingWaitsAndLeavesOnceTheStreamIsUp(_ kind: ContractSession) async throws {
        try await kind.run { stage in
            await stage.dialling()
            let outcomes = await stage.outcomes(of: [ContractCall(request: Reads.plan, order: .plan)]) { _ in
                await stage.settle()
                #expect(await stage.sent() == [], "nothing leaves without a stream")
                await stage.streamComes()
            }
            #expect(outcomes == [.answered(ContractAnswers.answer(to: Reads.plan))])
            #expect(await stage.sent() == [Reads.plan])
        }
    }

    @Test(arguments: ContractSession.allCases)
    func aReadAskedInTheBackgroundFailsAtOnceAndNothingIsSent(_ kind: ContractSession) async throws {
        try await kind.run { stage in
            await stage.streamUp()
            await stage.background()
            let outcomes = await stage.outcomes(of: [ContractCall(request: Reads.plan, order: .person)])
            #expect(outcomes == [.failed(.carrierLost)], "failed before any time passed")
            await stage.streamComes()
            #expect(await stage.sent() == [], "nor sent on the return")
        }
    }

    @Test(arguments: ContractSession.allCases)
    func readsStillWaitingWhenTheBackgroundComesFailCarrierLost(_ kind: ContractSession) async throws {
        try await kind.run { stage in
            await stage.dialling()
            let calls = [
                ContractCall(request: Reads.plan, order: .plan), ContractCall(request: Reads.status, order: .status),
            ]
            let outcomes = await stage.outcomes(of: calls) { _ in
                await stage.background()
            }
            #expect(outcomes == [.failed(.carrierLost), .failed(.carrierLost)])
            await stage.streamComes()
            #expect(await stage.sent() == [], "nothing asked for an old name leaves on the return")
        }
    }

    @Test(arguments: ContractSession.allCases)
    func aReadOnTheWireWhenTheCarrierDropsFailsAndOneAskedAfterWaitsForTheNextStream(
        _ kind: ContractSession
    ) async throws {
        try await kind.run { stage in
            await stage.streamUp()
            await stage.holdAnswers()
            let onTheWire = await stage.outcomes(of: [ContractCall(request: Reads.plan, order: .plan)]) { _ in
                await stage.settle()
                await stage.dropCarrier()
            }
            #expect(onTheWire == [.failed(.carrierLost)], "nothing is answered")
            let next = await stage.outcomes(of: [ContractCall(request: Reads.chargers, order: .chargers)]) { _ in
                #expect(await stage.hello() == nil)
                await stage.streamComes()
                await stage.releaseAnswers()
            }
            #expect(next == [.answered(ContractAnswers.answer(to: Reads.chargers))])
        }
    }

    @Test(arguments: ContractSession.allCases)
    func readsWaitingTogetherLeaveInReadOrderAPersonsFirst(_ kind: ContractSession) async throws {
        try await kind.run { stage in
            await stage.dialling()
            let calls = [
                ContractCall(request: Reads.history, order: .rest),
                ContractCall(request: Reads.status, order: .status),
                ContractCall(request: Reads.plan, order: .plan),
                ContractCall(request: Reads.energy, order: .person),
                ContractCall(request: Reads.prefs, order: .prefs),
                ContractCall(request: Reads.chargers, order: .chargers),
            ]
            _ = await stage.outcomes(of: calls) { _ in await stage.streamComes() }
            #expect(
                await stage.sent() == [
                    Reads.energy, Reads.chargers, Reads.prefs, Reads.plan, Reads.status, Reads.history,
                ]
            )
        }
    }

    @Test(arguments: ContractSession.allCases)
    func equalReadsShareOneRequestAndEveryCallerIsToldEachTile(_ kind: ContractSession) async throws {
        try await kind.run { stage in
            await stage.dialling()
            let (first, second) = (Tally<String>(), Tally<String>())
            let calls = [
                ContractCall(request: Reads.history, order: .rest) { first.note($0.tileId) },
                ContractCall(request: Reads.history, order: .person) { second.note($0.tileId) },
            ]
            let outcomes = await stage.outcomes(of: calls) { _ in await stage.streamComes() }
            let answer = ContractOutcome.answered(ContractAnswers.answer(to: Reads.history))
            #expect(outcomes == [answer, answer])
            #expect(await stage.sent() == [Reads.history], "one request frame")
            #expect(first.seen == ["tile-0", "tile-1"])
            #expect(second.seen == ["tile-0", "tile-1"])
        }
    }

    @Test(arguments: ContractSession.allCases)
    func aCallerWhoGoesAwayIsAnsweredCancelledAndAReadNobodyWaitsForNeverLeaves(
        _ kind: ContractSession
    ) async throws {
        try await kind.run { stage in
            await stage.dialling()
            let calls = [
                ContractCall(request: Reads.plan, order: .plan, cancellable: true),
                ContractCall(request: Reads.plan, order: .plan),
                ContractCall(request: Reads.status, order: .status, cancellable: true),
            ]
            let outcomes = await stage.outcomes(of: calls) { cancel in
                cancel.fire()
                await stage.simulation.settle()
                await stage.streamComes()
            }
            #expect(
                outcomes == [
                    .failed(.cancelled), .answered(ContractAnswers.answer(to: Reads.plan)), .failed(.cancelled),
                ]
            )
            #expect(await stage.sent() == [Reads.plan], "the status nobody waits for never left")
        }
    }

    @Test(arguments: ContractSession.allCases)
    func aCommandIsSentOnlyWithAStreamUpAndNeverKeptForLater(_ kind: ContractSession) async throws {
        try await kind.run { stage in
            let command = CommandRequest(op: "site.mode.set", args: ["mode": "idle"])
            await stage.dialling()
            #expect(await stage.command(command) == "carrierLost", "dialling")
            await stage.streamComes()
            #expect(await stage.command(command) == "applied")
            await stage.background()
            #expect(await stage.command(command) == "carrierLost", "background")
        }
    }

    @Test(arguments: ContractSession.allCases)
    func helloIsTheStreamsAndNilWheneverNoStreamIsUp(_ kind: ContractSession) async throws {
        try await kind.run { stage in
            await stage.dialling()
            #expect(await stage.hello() == nil, "dialling")
            await stage.streamComes()
            #expect(await stage.hello() == "demo")
            await stage.background()
            #expect(await stage.hello() == nil, "background")
        }
    }
}
