public import FTWSession
import Synchronization

/// A random source that plays a list, then repeats its last number: a test says exactly what a backoff draws.
public final class ScriptedRandom: RandomSource {
    private let numbers: Mutex<[Double]>
    private let drawn = Mutex<[Double]>([])

    /// Plays `numbers` in order, then repeats the last one.
    public init(_ numbers: [Double]) {
        self.numbers = Mutex(numbers)
    }

    /// The next number of the list.
    public func next() -> Double {
        let value = numbers.withLock { numbers in numbers.count > 1 ? numbers.removeFirst() : numbers.first ?? 0 }
        drawn.withLock { $0.append(value) }
        return value
    }
}
