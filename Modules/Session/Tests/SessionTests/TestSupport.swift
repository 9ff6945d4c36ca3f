import BoxProtocol
import SessionInterface
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

/// The tile ids a history reader was told of, in order.
final class ChunkTally: Sendable {
    private let tiles = Mutex<[String]>([])

    var seen: [String] { tiles.withLock { $0 } }

    func record(_ chunk: HistChunk) {
        tiles.withLock { $0.append(chunk.tileId) }
    }
}

extension Result where Failure == SessionError {
    /// The error's code, or nil for a success.
    var errorCode: SessionError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}
