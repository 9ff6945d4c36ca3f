import FTWClockSeam
import FTWClockSeamTesting
import Testing

private actor Ledger {
    var lines: [String] = []
    func add(_ line: String) { lines.append(line) }
}

@Suite struct SimulationTests {
    @Test func anHourOfOneHertzWorkPassesInOrderAndCompletely() async {
        let simulation = Simulation(originMs: 0)
        let count = await simulation.run { simulation in
            let ledger = Ledger()
            return await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    var beat = 0
                    while true {
                        try await simulation.clock.sleep(for: .seconds(1))
                        beat += 1
                        await ledger.add("beat \(beat) at \(simulation.clock.nowMs)")
                    }
                }
                await simulation.advance(by: .seconds(3_600))
                let lines = await ledger.lines
                group.cancelAll()
                #expect(lines.first == "beat 1 at 1000")
                #expect(lines.last == "beat 3600 at 3600000")
                return lines.count
            }
        }
        #expect(count == 3_600)
    }

    @Test func settleWaitsForWorkHandedBetweenActorsAndStreams() async {
        let simulation = Simulation(originMs: 0)
        let seen = await simulation.run { simulation in
            let ledger = Ledger()
            let (stream, continuation) = AsyncStream<Int>.makeStream()
            return await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await value in stream { await ledger.add("\(value)") }
                }
                for value in 0..<500 { continuation.yield(value) }
                await simulation.settle()
                let lines = await ledger.lines
                continuation.finish()
                return lines.count
            }
        }
        #expect(seen == 500)
    }
}
