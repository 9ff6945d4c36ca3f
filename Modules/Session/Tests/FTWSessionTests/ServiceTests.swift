import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWClockSeamTesting
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWSessionTestSupport
import Testing

/// The session as a service: it runs once, returns on cancellation, and leaves no caller waiting.
@Suite struct ServiceTests {
    private static func session(dialer: InMemoryDialer, simulation: Simulation) -> LiveSession {
        LiveSession(
            dialer: dialer,
            identity: SessionIdentity(
                appStaticPrivateKey: ScriptedBox.appPrivateKey,
                boxStaticPublicKey: ScriptedBox.staticPublicKey
            ),
            configuration: SessionConfiguration(build: "test"),
            clock: simulation.clock,
            wallClock: simulation.clock,
            random: SeededRandomSource(seed: 1),
            log: DiscardingLogSink(),
            events: EventBus()
        )
    }

    @Test func runReturnsOnCancellationClosesItsCarrierAndFailsEveryPendingCallCancelled() async throws {
        let simulation = Simulation(originMs: SessionWorld.originMs)
        await simulation.run { simulation in
            let dialer = InMemoryDialer()
            let session = Self.session(dialer: dialer, simulation: simulation)
            let results = ReadResults()
            await withTaskGroup(of: Void.self) { readers in
                readers.addTask {
                    do throws(SessionError) {
                        await results.add(
                            .plan,
                            .success(try await session.readAnswer(.plan, order: .plan, onChunk: nil))
                        )
                    } catch {
                        await results.add(.plan, .failure(error))
                    }
                }
                await withThrowingTaskGroup(of: Void.self) { service in
                    service.addTask { try await session.run() }
                    await session.setPhase(.active)
                    await simulation.settle()
                    #expect(dialer.carriers.count == 1)
                    service.cancelAll()
                }
                await simulation.settle()
                readers.cancelAll()
            }
            let answers = await results.results(of: .plan)
            #expect(answers == [.failure(SessionError(.cancelled, "the session stopped"))])
            #expect(dialer.carriers.allSatisfy { $0.isClosed })
            await #expect(throws: ServiceError.alreadyRunning("session")) { try await session.run() }
            await #expect(throws: SessionError.self) { try await session.read(.plan, order: .person) }
        }
    }

    @Test func aSecondRunWhileTheFirstRunsIsRefusedByNameAndTheFirstKeepsDialling() async {
        let simulation = Simulation(originMs: SessionWorld.originMs)
        await simulation.run { simulation in
            let dialer = InMemoryDialer()
            let session = Self.session(dialer: dialer, simulation: simulation)
            await withThrowingTaskGroup(of: Void.self) { service in
                service.addTask { try await session.run() }
                await simulation.settle()
                await #expect(throws: ServiceError.alreadyRunning("session")) { try await session.run() }
                await session.setPhase(.active)
                await simulation.settle()
                #expect(dialer.carriers.count == 1)
                service.cancelAll()
            }
        }
    }

    @Test func aCallerThatGoesAwayIsAnsweredCancelledAndAnotherSharerStillGetsTheAnswer() async throws {
        try await SessionWorld.run(setUp: ScriptedBox.holdsAnswers) { world in
            await world.comeToFront()
            let kept = try await world.withReads { reads in
                await reads.ask(Reads.energy, order: .rest)
                await world.advance(by: .seconds(1))
                await reads.ask(Reads.chargers, order: .chargers)
                let leaving = try await world.withReads { leaving in
                    await leaving.ask(Reads.chargers, order: .chargers)
                    await leaving.cancelWaiting()
                }
                #expect(await leaving.errorCodes(of: Reads.chargers) == [.cancelled])
                await world.box.configure { $0.holding = false }
                await world.box.answerHeld()
                await world.advance(by: .seconds(1))
            }
            #expect(await kept.errorCodes(of: Reads.chargers).isEmpty)
            #expect(await kept.results(of: Reads.chargers).count == 1)
            #expect(await world.box.requests.map(\.read) == [Reads.energy, Reads.chargers])
        }
    }

    @Test func aQueuedReadWhoseOnlyCallerWentAwayIsNeverSent() async throws {
        try await SessionWorld.run(setUp: ScriptedBox.holdsAnswers) { world in
            await world.comeToFront()
            _ = try await world.withReads { reads in
                await reads.ask(Reads.energy, order: .rest)
                await world.advance(by: .seconds(1))
                _ = try await world.withReads { leaving in
                    await leaving.ask(Reads.chargers, order: .chargers)
                    await leaving.cancelWaiting()
                }
                await world.box.configure { $0.holding = false }
                await world.box.answerHeld()
                await world.advance(by: .seconds(1))
            }
            #expect(await world.box.requests.map(\.read) == [Reads.energy])
        }
    }
}
