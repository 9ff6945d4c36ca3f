import Synchronization

/// A model's inputs in the order they were queued, each with its place, and the pulls to refresh among them as they
/// are sent: what lets the age-keyed rule be kept by a model that runs each ask before its next input (cache.md §1,
/// §2).
///
/// Such a model handles an input queued while an ask ran only once that ask settled. The place tells the rule which
/// looks were queued before a failure (``AskFailure/isNewLook(at:)``: no new look). And a pull must not wait behind
/// the model's own ask: the model follows ``pulls`` beside its loop, and while the loop has not reached a pull and the
/// ask out wants what the pull wants, it joins that ask as a person's (the session sends one frame, first in the
/// order) and marks the pull joined (``join(_:)``); the loop then passes over it (``take(_:)``).
///
/// ## Concurrency
/// A lock around the places; sent from any task, read by the model's loop and its pull lane.
public final class AskInbox<Input: Sendable>: Sendable {
    /// One input and its place: later inputs have greater places.
    public struct Entry: Sendable {
        /// Where the input was queued.
        public var place: Int
        /// What happened.
        public var input: Input
    }

    private struct Book {
        /// The place of the last input queued.
        var queued = 0
        /// The place of the input the loop took last.
        var taken = 0
        /// Pulls that joined an ask before the loop reached them.
        var joined: Set<Int> = []
    }

    /// The inputs in the order they were queued; one reader, the model's loop.
    public let entries: AsyncStream<Entry>
    /// The place of each pull to refresh as it is sent; one reader, the model's pull lane.
    public let pulls: AsyncStream<Int>

    private let entryContinuation: AsyncStream<Entry>.Continuation
    private let pullContinuation: AsyncStream<Int>.Continuation
    private let book = Mutex(Book())

    /// An empty inbox.
    public init() {
        (entries, entryContinuation) = AsyncStream<Entry>.makeStream()
        (pulls, pullContinuation) = AsyncStream<Int>.makeStream()
    }

    /// Queues `input`; `isPull` also tells the pull lane.
    public func send(_ input: Input, isPull: Bool = false) {
        book.withLock { book in
            book.queued += 1
            entryContinuation.yield(Entry(place: book.queued, input: input))
            if isPull { pullContinuation.yield(book.queued) }
        }
    }

    /// The place of the last input queued: an outcome learned now comes after every input up to it.
    public var lastQueued: Int { book.withLock { $0.queued } }

    /// The loop takes `entry`: false for a pull that already joined an ask, which the loop passes over.
    public func take(_ entry: Entry) -> Bool {
        book.withLock { book in
            book.taken = entry.place
            return book.joined.remove(entry.place) == nil
        }
    }

    /// Marks the pull at `place` joined, unless the loop has taken it already (then the loop handles it).
    public func join(_ place: Int) -> Bool {
        book.withLock { book in
            guard place > book.taken else { return false }
            book.joined.insert(place)
            return true
        }
    }

    /// Follows the pulls as they are sent, beside the model's loop, until the inbox finishes: `joining` gives, for the
    /// pull at a place, the work that joins the model's ask out (nil when the pull waits for the loop); each runs as a
    /// child task, so no pull waits for another's answer.
    public func followPulls(joining: @escaping @Sendable (Int) async -> (@Sendable () async -> Void)?) async {
        await withTaskGroup(of: Void.self) { joins in
            for await place in pulls {
                guard let join = await joining(place) else { continue }
                joins.addTask { await join() }
            }
        }
    }

    /// Ends both streams once what was queued is read.
    public func finish() {
        entryContinuation.finish()
        pullContinuation.finish()
    }
}
