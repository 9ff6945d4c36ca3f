import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWClockSeamTesting
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import FTWSessionTestSupport
import Testing

/// Commands: lane 0, no envelope id, a UUIDv7 key, validity in box uptime, the expected revision; acknowledged
/// within 5 s, settled within 15 s; never queued behind reads, never kept for a later session.
@Suite struct CommandTests {
    private static let request = CommandRequest(op: "site.mode.set", args: ["mode": .text("idle")])

    @Test func aCommandLeavesOnLaneZeroWithItsKeyValidityAndRevisionAndSettlesApplied() async throws {
        try await SessionWorld.run { world in
            await world.comeToFront()
            await world.advance(by: .seconds(3))
            let outcome = await world.command(Self.request)
            #expect(outcome == .success(CommandOutcome(state: "applied")))
            let sent = await world.box.requests
            guard sent.count == 1, case .cmd(let command) = sent[0].message else {
                Issue.record("no cmd: \(sent.map(\.message.type))")
                return
            }
            #expect(sent[0].id == nil)
            #expect(sent[0].lane == .control)
            #expect(command.op == "site.mode.set")
            #expect(command.args == ["mode": .text("idle")])
            #expect(command.notValidAfterMs == 5_000 + 120_000)
            #expect(command.expect == Expect(rev: 7))
            let key = Array(command.cmdId.utf8)
            #expect(key.count == 36)
            #expect(key[14] == UInt8(ascii: "7"))
            #expect([UInt8(ascii: "8"), UInt8(ascii: "9"), UInt8(ascii: "a"), UInt8(ascii: "b")].contains(key[19]))
            let stamp = UInt64(command.cmdId.filter { $0 != "-" }.prefix(12), radix: 16)
            #expect(stamp == UInt64(SessionWorld.originMs + 3_000))
        }
    }

    @Test func noAcknowledgementWithinFiveSecondsFailsTheCommand() async throws {
        try await SessionWorld.run(setUp: { await $0.configure { $0.script = { _, _ in [] } } }) { world in
            await world.comeToFront()
            #expect(await world.command(Self.request, within: .milliseconds(4_900))?.errorCode == .cancelled)
        }
        try await SessionWorld.run(setUp: { await $0.configure { $0.script = { _, _ in [] } } }) { world in
            await world.comeToFront()
            let outcome = await world.command(Self.request, within: .milliseconds(5_100))
            #expect(outcome?.errorCode == .timeout)
        }
    }

    @Test func anAcknowledgedCommandWithoutAResultWithinFifteenSecondsIsUnconfirmed() async throws {
        try await SessionWorld.run(setUp: { box in
            await box.configure {
                $0.script = { message, id in Array(ScriptedBox.defaultScript(message, id).prefix(1)) }
            }
        }) { world in
            await world.comeToFront()
            #expect(await world.command(Self.request, within: .milliseconds(14_900))?.errorCode == .cancelled)
        }
        try await SessionWorld.run(setUp: { box in
            await box.configure {
                $0.script = { message, id in Array(ScriptedBox.defaultScript(message, id).prefix(1)) }
            }
        }) { world in
            await world.comeToFront()
            let outcome = await world.command(Self.request, within: .milliseconds(15_100))
            #expect(outcome == .success(CommandOutcome(state: "unconfirmed")))
        }
    }

    @Test(arguments: [true, false])
    func aDropSettlesAnAcknowledgedCommandUnconfirmedAndAnyOtherLost(acknowledged: Bool) async throws {
        try await SessionWorld.run(setUp: { box in
            await box.configure {
                $0.script = { message, id in
                    Array(ScriptedBox.defaultScript(message, id).prefix(acknowledged ? 1 : 0))
                }
            }
        }) { world in
            await world.comeToFront()
            let outcome = Outcome()
            await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    do throws(SessionError) {
                        await outcome.set(.success(try await world.session.command(Self.request)))
                    } catch {
                        await outcome.set(.failure(error))
                    }
                }
                await world.simulation.settle()
                await world.box.close()
                await world.simulation.settle()
            }
            let settled = await outcome.value
            if acknowledged {
                #expect(settled == .success(CommandOutcome(state: "unconfirmed")))
            } else {
                #expect(settled?.errorCode == .carrierLost)
            }
        }
    }

    @Test func aCommandWithNoSessionUpFailsAtOnceAndIsNeverSentLater() async throws {
        try await SessionWorld.run { world in
            let outcome = await world.command(Self.request)
            #expect(outcome?.errorCode == .carrierLost)
            await world.comeToFront()
            await world.advance(by: .seconds(30))
            #expect(await world.box.requests.isEmpty)
        }
    }

    @Test func aCommandIsNotQueuedBehindAReadOnTheWire() async throws {
        try await SessionWorld.run(setUp: { await $0.configure { $0.script = ScriptedBox.silent(on: .planGet) } }) {
            world in
            await world.comeToFront()
            _ = try await world.withReads { reads in
                await reads.ask(Reads.plan, order: .plan)
                await world.advance(by: .seconds(1))
                let outcome = await world.command(Self.request)
                #expect(outcome == .success(CommandOutcome(state: "applied")))
                await world.advance(by: .seconds(10))
            }
            #expect(await world.box.requests.map(\.message.type) == ["plan.get", "cmd"])
        }
    }
}
