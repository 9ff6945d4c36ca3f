import FTWBoxProtocol
import FTWBus
public import FTWClockSeamTesting
public import FTWSession
public import FTWSessionInterface

/// A live session inside a simulation, as the Session module's tests and the end-to-end tests drive it: bring the
/// app to the front, let time pass, ask reads and commands that settle (or are cancelled) within a simulated span.
///
/// A world conforms by naming its simulation and its session; every helper below runs on the simulation's clock,
/// so a test never waits on real time.
public protocol SimulatedWorld: Sendable {
    /// The simulation every part of the world runs in.
    var simulation: Simulation { get }
    /// The live session under test.
    var session: LiveSession { get }
}

extension SimulatedWorld {
    /// Brings the app to the front (inactive, then active) and lets the stream come up.
    public func comeToFront() async {
        await session.setPhase(.inactive)
        await session.setPhase(.active)
        await simulation.settle()
    }

    /// Now, in ms since the world began (its clock's origin).
    public var elapsedMs: Int64 { simulation.clock.nowMs - simulation.clock.originMs }

    /// Moves time on, letting everything due run.
    public func advance(by duration: Duration) async {
        await simulation.advance(by: duration)
    }

    /// Reads `request` while `duration` passes; a read still waiting then is cancelled (and reads `.cancelled`).
    public func read(
        _ request: ReadRequest,
        order: ReadOrder,
        within duration: Duration = .seconds(1)
    ) async -> Result<ReadAnswer, SessionError> {
        let results = try? await withReads { reads in
            await reads.ask(request, order: order)
            await advance(by: duration)
            await reads.cancelWaiting()
        }
        return await results?.results(of: request).first ?? .failure(SessionError(.cancelled, "never settled"))
    }

    /// Sends `request` while `duration` passes and returns how it settled (`.cancelled` when it was still waiting).
    public func command(
        _ request: CommandRequest,
        within duration: Duration = .seconds(1)
    ) async -> Result<
        CommandOutcome, SessionError
    >? {
        let outcome = Outcome()
        await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [session] in
                do throws(SessionError) {
                    await outcome.set(.success(try await session.command(request)))
                } catch {
                    await outcome.set(.failure(error))
                }
            }
            await advance(by: duration)
            group.cancelAll()
        }
        return await outcome.value
    }

    /// Runs `body` with a way to ask reads that wait in the background; a read still waiting when `body` returns is
    /// cancelled (its result is `.cancelled`), so a read that never settles fails its test instead of hanging it.
    ///
    /// - Returns: Every read's result.
    public func withReads(_ body: @Sendable (Readers) async throws -> Void) async throws -> ReadResults {
        let results = ReadResults()
        let (asked, continuation) = AsyncStream.makeStream(of: Readers.Asked.self)
        let cancel = StopRequest()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [session] in
                await withTaskGroup(of: Bool.self) { readers in
                    readers.addTask {
                        await cancel.wait()
                        return true
                    }
                    var waiting = 0
                    for await read in asked {
                        waiting += 1
                        readers.addTask {
                            await results.add(read.request, await session.result(of: read))
                            return false
                        }
                    }
                    while waiting > 0, let cancelled = await readers.next() {
                        if cancelled { readers.cancelAll() } else { waiting -= 1 }
                    }
                    readers.cancelAll()
                }
            }
            let readers = Readers(continuation: continuation, cancel: cancel, simulation: simulation, results: results)
            try await body(readers)
            await readers.cancelWaiting()
            try await group.waitForAll()
        }
        return results
    }
}
