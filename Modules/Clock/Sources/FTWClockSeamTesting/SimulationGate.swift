import Foundation
import Synchronization

/// Bounds how many simulations run at once in one process, so that a test run's wall-clock work still gets the CPU.
///
/// Each ``Simulation`` runs on a thread of its own and never waits on the wall clock, so it takes all the CPU its
/// thread is given. Swift Testing starts every test at once: a hundred simulated suites meant a hundred busy threads,
/// and on two cores a loopback test beside them got a hundredth of a core and missed its wall-clock watchdog. With
/// at most one simulation per core running, the scheduler shares each core between one simulation and whatever
/// wall-clock work is waiting, and the run takes no longer: the simulations were CPU-bound either way.
///
/// A simulation started inside another holds no second place, so nesting cannot deadlock.
final class SimulationGate: Sendable {
    /// The gate every ``Simulation`` of the process passes.
    static let shared = SimulationGate(places: ProcessInfo.processInfo.activeProcessorCount)

    @TaskLocal static var holding = false

    private struct Places {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let places: Mutex<Places>

    private init(places: Int) {
        self.places = Mutex(Places(free: max(1, places)))
    }

    /// Runs `body` once a place is free (at once when the caller already holds one) and frees the place after.
    func pass<T: Sendable>(_ body: @Sendable () async throws -> T) async rethrows -> T {
        if Self.holding { return try await body() }
        await enter()
        defer { leave() }
        return try await Self.$holding.withValue(true) { try await body() }
    }

    private func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = places.withLock { places in
                guard places.free > 0 else {
                    places.waiting.append(continuation)
                    return false
                }
                places.free -= 1
                return true
            }
            if admitted { continuation.resume() }
        }
    }

    private func leave() {
        let next = places.withLock { places in
            guard !places.waiting.isEmpty else {
                places.free += 1
                return CheckedContinuation<Void, Never>?.none
            }
            return places.waiting.removeFirst()
        }
        next?.resume()
    }
}
