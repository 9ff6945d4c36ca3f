import FTWBus
import FTWClient
import FTWClockSeam
import FTWClockSeamTesting
import FTWDemoBox
import FTWSession
import Foundation
import Synchronization

/// A paired phone and the demo box on a simulated clock, for the client's public face: clients made on the same
/// data folder one after another (a launch, a stay, a close), as an app's scenes are.
struct ClientWorld: Sendable {
    let phone: PhoneWorld
    let site: PairedSite

    /// Runs `body` with a phone paired with the simulated demo box (its folder removed afterwards).
    static func run<T: Sendable>(_ body: @Sendable (ClientWorld) async throws -> T) async throws -> T {
        try await PhoneWorld.run { phone in
            let site = try await phone.pair(try await phone.link()).get()
            return try await body(ClientWorld(phone: phone, site: site))
        }
    }

    var simulation: Simulation { phone.simulation }

    /// A new client (a new process) on the phone's folder (through `store`, when given), dialling the box
    /// in-process.
    func client(log: any LogSink = DiscardingLogSink(), store: (any SealedStore)? = nil) -> HeadlessClient {
        HeadlessClient(
            paired: site,
            store: store ?? phone.folder.unlockedStore(),
            dialer: phone.box.inProcessDialer(),
            clock: simulation.clock,
            wallClock: simulation.clock,
            random: SeededRandomSource(seed: 7),
            policy: .ageKeyed,
            log: log
        )
    }

    /// One stay of `client`, launched already: its services run while `body` drives it, and then it is closed
    /// (by `ending`, or ``HeadlessClient/close()``) while the simulated clock moves on (the close waits for the
    /// relay's answer, which takes simulated time).
    func stay(
        of client: HeadlessClient,
        endingWith ending: (@Sendable () async -> Void)? = nil,
        _ body: @Sendable () async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.run() }
            await simulation.settle()
            try await body()
            group.addTask { await (ending ?? { await client.close() })() }
            group.addTask { await simulation.advance(by: .seconds(10)) }
            try await group.waitForAll()
        }
    }

    /// A first stay that leaves sealed files behind: the home screen, a node, the status sheet and the prices are
    /// shown for `seconds` of simulated time, then the app closes (which seals what it holds).
    func leaveSealedFiles(seconds: Int = 12) async throws {
        let client = client()
        _ = await client.launch()
        try await stay(of: client) {
            try await client.setPhase(.active)
            for view in [ViewName.now, .battery, .status] { client.show(view) }
            await simulation.advance(by: .seconds(seconds))
        }
    }
}

/// Every value an observation gave, in order, kept by the task that iterates it.
final class Recorded<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])

    /// What was given so far.
    var all: [Value] { values.withLock { $0 } }

    /// Keeps `value`.
    func append(_ value: Value) {
        values.withLock { $0.append(value) }
    }

    /// Iterates `sequence` until it ends, keeping each value.
    func follow<S: AsyncSequence & Sendable>(_ sequence: S) async where S.Element == Value, S.Failure == Never {
        for await value in sequence { values.withLock { $0.append(value) } }
    }
}
