import FTWBoxProtocol
import FTWSessionInterface
import Synchronization

extension ScriptedBox.Received {
    /// The read this request frame carries, to compare with what was asked.
    var read: ReadRequest? {
        switch message {
        case .apiReq(let request): .api(request)
        case .planGet: .plan
        case .priceGet(let window): .prices(window)
        case .histQuery(let query): .history(query)
        default: nil
        }
    }
}

/// Counts calls across tasks: a script that answers differently the n-th time.
final class Counter: Sendable {
    private let value = Mutex(0)

    /// Adds one and returns the new count.
    func next() -> Int {
        value.withLock { value in
            value += 1
            return value
        }
    }
}

/// Values noted from any task, in order: the tiles a history reader was told of, the paths a relay was asked for.
final class Tally<Element: Sendable>: Sendable {
    private let values = Mutex<[Element]>([])

    var seen: [Element] { values.withLock { $0 } }

    func note(_ value: Element) {
        values.withLock { $0.append(value) }
    }
}
