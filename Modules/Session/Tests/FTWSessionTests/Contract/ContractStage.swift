import FTWBoxProtocol
import FTWBus
import FTWClockSeamTesting
import FTWSessionInterface
import FTWSessionTestHarness

/// One session under the contract, with the hands a test needs to move it through the phases of `BoxSession`.
protocol ContractStage: Sendable {
    /// The session under test, as the models see it.
    var session: any BoxSession { get }
    /// The world's simulation: its clock is the session's.
    var simulation: Simulation { get }

    /// The app comes to the front and the stream comes up.
    func streamUp() async
    /// The app comes to the front and the stream is not up yet: the dial has not finished.
    func dialling() async
    /// The stream comes (back) up: the dial finishes, or the session dials again after a drop.
    func streamComes() async
    /// The app goes to the background.
    func background() async
    /// The carrier drops under the stream, the app still in front.
    func dropCarrier() async
    /// The box keeps its answers to the reads it receives.
    func holdAnswers() async
    /// The box answers what it kept, and answers at once again.
    func releaseAnswers() async
    /// The reads the box received, in order.
    func sent() async -> [ReadRequest]
}

extension ContractStage {
    /// Lets a moment pass: long enough for a read to leave through an idle slot and be answered, far shorter than
    /// any deadline or the foreground watchdog.
    func settle() async {
        await simulation.advance(by: .milliseconds(200))
    }

    /// Asks `calls` in order, each from a task of its own as a caller would, runs `body`, and returns what each
    /// call had settled with when `body` ended (`.waiting` if nothing yet); the calls still waiting are then
    /// cancelled. `body` gets the signal that cancels the calls asked `cancellable`.
    func outcomes(
        of calls: [ContractCall],
        then body: @Sendable (StopRequest) async -> Void = { _ in }
    ) async -> [ContractOutcome] {
        let outcomes = ContractOutcomes(count: calls.count)
        // One signal per call (a signal has one waiter): each ends its call's wait, the cancellable ones first.
        let stops = calls.map { _ in StopRequest() }
        let cancel = StopRequest()
        return await withTaskGroup(of: Void.self) { group in
            for (index, call) in calls.enumerated() {
                group.addTask { [session] in
                    await withTaskGroup(of: Void.self) { race in
                        race.addTask { outcomes.set(index, await session.outcome(of: call)) }
                        race.addTask { await stops[index].wait() }
                        await race.next()
                        race.cancelAll()
                    }
                }
                await simulation.settle()
            }
            group.addTask {
                await cancel.wait()
                for (index, call) in calls.enumerated() where call.cancellable { stops[index].fire() }
            }
            await body(cancel)
            let seen = outcomes.seen
            cancel.fire()
            for stop in stops { stop.fire() }
            return seen
        }
    }
}

extension BoxSession {
    /// Asks `call` and keeps how it settled.
    func outcome(of call: ContractCall) async -> ContractOutcome {
        do throws(SessionError) {
            return .answered(try await readAnswer(call.request, order: call.order, onChunk: call.onChunk))
        } catch {
            return .failed(error.code)
        }
    }
}

extension ContractStage {
    /// The box the current stream's `hello_ok` names, if a stream is up.
    func hello() async -> String? {
        await session.hello()?.box.id
    }

    /// Sends `command` while a moment passes: the state it settled in, or the code of its error.
    func command(_ command: CommandRequest) async -> String? {
        let settled = Tally<String>()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [session] in
                do throws(SessionError) {
                    settled.note(try await session.command(command).state)
                } catch {
                    settled.note("\(error.code)")
                }
            }
            await settle()
            group.cancelAll()
        }
        return settled.seen.first
    }
}
