import Session
import Synchronization

/// A random source that plays a list, then repeats its last number: a test says exactly what a backoff draws.
final class ScriptedRandom: RandomSource {
    private let numbers: Mutex<[Double]>
    private let drawn = Mutex<[Double]>([])

    init(_ numbers: [Double]) {
        self.numbers = Mutex(numbers)
    }

    func next() -> Double {
        let value = numbers.withLock { numbers in numbers.count > 1 ? numbers.removeFirst() : numbers.first ?? 0 }
        drawn.withLock { $0.append(value) }
        return value
    }
}
