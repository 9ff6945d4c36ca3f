import FTWBoxProtocol
import FTWClient
import FTWClockSeam
import FTWClockSeamTesting
import FTWDemoBox
import FTWHeadlessTooling
import FTWSealInterface
import Foundation

/// The phone's data folder in a fresh temporary place, and the demo box on a simulated clock, for pairing tests
/// that must not wait on the wall clock (a refused handshake is a deadline).
struct PhoneWorld: Sendable {
    struct Timeout: Error {}

    let simulation: Simulation
    let box: SimulatedBox
    let folder: DataFolder

    /// A temporary data folder, removed by the caller.
    static func temporaryFolder() -> DataFolder {
        DataFolder(
            url: FileManager.default.temporaryDirectory.appendingPathComponent("ftw-e2e-\(UUID().uuidString)")
        )
    }

    /// Runs `body` with a simulated demo box running and a fresh phone folder (removed afterwards).
    static func run<T: Sendable>(_ body: @Sendable (PhoneWorld) async throws -> T) async throws -> T {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let simulation = Simulation(originMs: 1_796_205_600_000)
        return try await simulation.run { simulation in
            let box = SimulatedBox(
                configuration: DemoBoxConfiguration(),
                clock: simulation.clock,
                wallClock: simulation.clock
            )
            return try await withThrowingTaskGroup(of: T?.self) { group in
                group.addTask {
                    try await box.run()
                    return nil
                }
                await simulation.settle()
                defer { group.cancelAll() }
                return try await body(PhoneWorld(simulation: simulation, box: box, folder: folder))
            }
        }
    }

    /// A second phone with its own fresh folder (removed by the caller), in the same world.
    func otherPhone() -> PhoneWorld {
        PhoneWorld(simulation: simulation, box: box, folder: Self.temporaryFolder())
    }

    /// A pairing on the simulated clock, sealing into the world's folder.
    var pairing: Pairing {
        Pairing(store: folder.unlockedStore(), clock: simulation.clock, wallClock: simulation.clock)
    }

    /// The box's own link, as it would print it.
    func link() async throws -> EnrolmentURL {
        try EnrolmentURL(parsing: await box.enrolmentURL(lanHint: "127.0.0.1:8787"))
    }

    /// Pairs with `link` through the in-process relay, letting simulated time run until the pairing ends; the site
    /// keeps `relay` as its address, or the library's default when nil. With `cut`, the relay cuts every carrier
    /// that long after the pairing starts.
    func pair(
        _ link: EnrolmentURL,
        relay: RelayAddress? = .demoBox,
        cut: Duration? = nil
    ) async -> Result<PairedSite, any Error> {
        await whileAMinutePasses(cut: cut) { [pairing, box] in
            let dialer = box.inProcessDialer()
            if let relay { return try await pairing.pair(link, relay: relay, dialer: dialer) }
            return try await pairing.pair(link, dialer: dialer)
        }
    }

    /// Greets `site` as a known device through the in-process relay, letting simulated time run until it ends.
    func greet(_ site: PairedSite) async -> Result<HelloOK, any Error> {
        await whileAMinutePasses { [pairing, box] in try await pairing.greet(site, dialer: box.inProcessDialer()) }
    }

    /// Runs `work` while a minute of simulated time passes (the relay cutting every carrier at `cut`), and says how
    /// it ended.
    private func whileAMinutePasses<T: Sendable>(
        cut: Duration? = nil,
        _ work: @escaping @Sendable () async throws -> T
    ) async -> Result<T, any Error> {
        await withTaskGroup(of: Result<T, any Error>?.self) { group in
            group.addTask {
                do {
                    return .success(try await work())
                } catch {
                    return .failure(error)
                }
            }
            group.addTask { [box] in
                if let cut {
                    await simulation.advance(by: cut)
                    await box.cutCarriers()
                }
                await simulation.advance(by: .seconds(60))
                return nil
            }
            var outcome: Result<T, any Error> = .failure(Timeout())
            while let next = await group.next() {
                if let next { outcome = next }
            }
            return outcome
        }
    }

    /// The names of every file left under the data folder, or nil when the folder itself is gone.
    func filesLeft() -> [String]? {
        guard FileManager.default.fileExists(atPath: folder.url.path),
            let walker = FileManager.default.enumerator(atPath: folder.url.path)
        else { return nil }
        return walker.compactMap { $0 as? String }.sorted()
    }
}
