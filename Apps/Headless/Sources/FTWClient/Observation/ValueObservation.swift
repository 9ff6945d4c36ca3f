/// What a screen shows, as an asynchronous sequence of values: the current value first, then a value each time it
/// changes, never the same value twice in a row.
///
/// Iterating subscribes to the models the value is read from before reading it, so no change between the first
/// value and the next is missed. A consumer slower than the changes gets the newest value when it asks, not a
/// backlog (as GRDB's `ValueObservation` and SwiftUI's observation coalesce), so a screen that draws once a second
/// costs the same whatever the box sends. The sequence ends when the client is closed (one started after the close
/// gives nothing) or the consuming task is cancelled. Each iterator is one subscription; a sequence may be iterated any number of times.
public struct ValueObservation<Value: Sendable & Equatable>: AsyncSequence, Sendable {
    /// Makes a signal watch what the value is read from.
    typealias Watch = @Sendable (ChangeSignal) -> Void

    private let watch: Watch
    private let hasEnded: @Sendable () -> Bool
    private let read: @Sendable () async -> Value

    /// An observation of `read`, read again whenever a bus `watch` subscribes to publishes, until `hasEnded`.
    init(watch: @escaping Watch, hasEnded: @escaping @Sendable () -> Bool, read: @escaping @Sendable () async -> Value)
    {
        self.watch = watch
        self.hasEnded = hasEnded
        self.read = read
    }

    /// Subscribes, so the first value read afterwards is followed by every change.
    public func makeAsyncIterator() -> Iterator {
        let signal = ChangeSignal()
        watch(signal)
        return Iterator(signal: signal, wakes: signal.makeWakeIterator(), hasEnded: hasEnded, read: read)
    }

    /// Reads the current value, then waits for each change.
    public struct Iterator: AsyncIteratorProtocol {
        private let signal: ChangeSignal
        private var wakes: AsyncStream<Void>.Iterator
        private let hasEnded: @Sendable () -> Bool
        private let read: @Sendable () async -> Value
        private var last: Value?
        private var started = false

        init(
            signal: ChangeSignal,
            wakes: AsyncStream<Void>.Iterator,
            hasEnded: @escaping @Sendable () -> Bool,
            read: @escaping @Sendable () async -> Value
        ) {
            self.signal = signal
            self.wakes = wakes
            self.hasEnded = hasEnded
            self.read = read
        }

        /// The current value on the first call; afterwards the next value that differs from the last one given, or
        /// nil once the client is closed (at once, for an observation started after the close) or the task is
        /// cancelled.
        public mutating func next() async -> Value? {
            // A closed client publishes no more wakes: waiting for one would never end.
            guard !hasEnded() else { return nil }
            guard started else {
                started = true
                let value = await read()
                last = value
                return value
            }
            while await wakes.next() != nil, !hasEnded(), !Task.isCancelled {
                let value = await read()
                if value != last {
                    last = value
                    return value
                }
            }
            return nil
        }
    }
}
