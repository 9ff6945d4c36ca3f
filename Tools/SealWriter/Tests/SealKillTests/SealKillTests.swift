import FTWBus
import FTWFixtures
import FTWSeal
import FTWSealInterface
import Foundation
import Testing
import ftw_seal_writer

/// Sealed files survive being killed mid-write: a child process writes them in a loop and is killed with SIGKILL at
/// a random moment, hundreds of times; after each kill the files are opened as the next launch would open them.
///
/// Each file must open as exactly the last version whose write finished, or as the one write that was in flight
/// when the kill came; absent only if no write of it ever finished. Never torn, never an older version, never
/// dropped as unreadable.
@Suite struct SealKillTests {
    static let kills = 300

    @Test func everyFileOpensAsTheOldOrTheNewVersionAfterEveryKill() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(component: "seal-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bus = EventBus<SealEvent>()
        let events = bus.subscribe()
        var known: [SealedFileName: WrittenVersion] = [:]
        for generation in 0..<Self.kills {
            // The child is driven with blocking reads and a spin: on a thread of its own, not the test pool's.
            let (inFlight, finished) = try await OwnThread.run {
                try Self.killMidWrite(folder: folder, generation: generation)
            }
            for version in finished { known[version.name] = version }
            let store = FileSealedStore(folder: folder, keys: FileKeyProvider(dataFolder: folder), events: bus)
            for name in WrittenVersion.names {
                let found = await store.read(name).map { WrittenVersion(contents: $0) }
                let allowed = [known[name], inFlight.name == name ? inFlight : nil]
                switch found {
                case .none:
                    #expect(
                        known[name] == nil,
                        "\(name) is gone after \(known[name].map(String.init(describing:)) ?? "")"
                    )
                case .some(.none):
                    Issue.record("\(name) opened to contents no write ever had")
                case .some(.some(let version)):
                    #expect(allowed.contains(version), "\(name) opened as \(version), not one of \(allowed)")
                    known[name] = version
                }
            }
        }
        bus.finish()
        var dropped: [SealEvent] = []
        for await event in events {
            if case .dropped = event { dropped.append(event) }
        }
        #expect(dropped.isEmpty)
        #expect(known.count == WrittenVersion.names.count)
    }

    /// Keeps this thread busy for `rounds` steps of arithmetic (up to a few milliseconds), so the kill lands at a
    /// random point of the child's next write. Busy, not asleep: a sleep's wake-up is too coarse, and yielding hands
    /// the core to whatever else runs for a whole time slice.
    static func spin(_ rounds: Int) {
        var state: UInt64 = 1
        for _ in 0..<rounds { state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
        withExtendedLifetime(state) {}
    }

    /// Starts a writer, lets it finish a random number of writes (0 to 8), waits a random extra moment so the kill
    /// lands anywhere inside the next write, and kills it.
    ///
    /// - Returns: The write that was in flight when the kill came, and the writes the child reported as finished.
    static func killMidWrite(
        folder: URL,
        generation: Int
    ) throws -> (inFlight: WrittenVersion, finished: [WrittenVersion]) {
        var random = SystemRandomNumberGenerator()
        let child = try WriterChild(folder: folder, generation: generation)
        var finished = -1
        let target = Int.random(in: 0...8, using: &random)
        while finished < target - 1, let index = child.nextFinished() { finished = index }
        spin(Int.random(in: 0...400_000, using: &random))
        child.crash()
        while let index = child.nextFinished() { finished = index }
        let versions = (0..<(finished + 1)).map { WrittenVersion(generation: generation, index: $0) }
        return (WrittenVersion(generation: generation, index: finished + 1), versions)
    }
}
