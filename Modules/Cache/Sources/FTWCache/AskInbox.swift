import Synchronization

/// A model's inputs in the order they were queued, each with its place, and the pulls to refresh among them as they
/// are sent: what lets the age-keyed rule be kept by a model that runs each ask before its next input (cache.md §1,
/// §2).
///
/// Such a model handles an input queued while an ask ran only once that ask settled. The place tells the rule which
/// looks were queued before a failure (``AskFailure/isNewLook(at:)``: no new look). And a pull must not wait behind
/// the model's own ask: the model follows ``pulls`` beside its loop, and while the loop has not reached a pull and the
/// ask out wants what the pull wants, it joins that ask as a person's (the session sends one frame, first in the
/// order) and marks the pull joined (``join(_:)``); the loop then passes over it (``take(_:)``). If the read it shared
/// was already on the wire and fails, the pull is queued again for the loop, which sends its own request
/// (``followPulls(again:joining:)``).
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

    /// The two streams and their continuations, made when the inbox is first sent to, read or finished: a model
    /// that is restored and not yet run (what a launch's first content waits for) builds no stream, each of which
    /// costs the runtime about ten generic metadata look-ups (some 4.5 k instructions).
    private final class Streams: Sendable {
        let entries: AsyncStream<Entry>
        let entryContinuation: AsyncStream<Entry>.Continuation
        let pulls: AsyncStream<Int>
        let pullContinuation: AsyncStream<Int>.Continuation

        init() {
            (entries, entryContinuation) = AsyncStream<Entry>.makeStream()
            (pulls, pullContinuation) = AsyncStream<Int>.makeStream()
        }
    }

    /// The inputs in the order they were queued; one reader, the model's loop.
    public var entries: AsyncStream<Entry> { streams.entries }
    /// The place of each pull to refresh as it is sent; one reader, the model's pull lane.
    public var pulls: AsyncStream<Int> { streams.pulls }

    /// Not generic, so the restore path's reads of it look up no metadata.
    private let book = Mutex(AskInboxBook())
    /// Made under `book`'s lock, which `send` holds while it yields (an input's place and its turn in the stream
    /// agree). A class, so the empty slot is a null reference and storing it looks up no metadata.
    private nonisolated(unsafe) var made: Streams?

    /// An empty inbox.
    public init() {}

    /// Queues `input`; `isPull` also tells the pull lane.
    public func send(_ input: Input, isPull: Bool = false) {
        book.withLock { book in
            book.queued += 1
            let streams = streamsLocked
            streams.entryContinuation.yield(Entry(place: book.queued, input: input))
            if isPull { streams.pullContinuation.yield(book.queued) }
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
    /// pull at a place, the work that joins the model's ask out and says whether the pull still needs a request of
    /// its own (nil when the pull waits for the loop); each runs as a child task, so no pull waits for another's
    /// answer.
    ///
    /// A pull that shared a read already on the wire which then failed still has a request of its own behind it,
    /// once (cache.md §1): it is queued again as `pull` for the loop, and not told to the pull lane, so it cannot join
    /// a read again.
    public func followPulls(
        again pull: Input,
        joining: @escaping @Sendable (Int) async -> (@Sendable () async -> Bool)?
    ) async {
        await withTaskGroup(of: Void.self) { joins in
            for await place in pulls {
                guard let join = await joining(place) else { continue }
                joins.addTask {
                    guard await join(), !Task.isCancelled else { return }
                    self.send(pull)
                }
            }
        }
    }

    /// Ends both streams once what was queued is read.
    public func finish() {
        let streams = streams
        streams.entryContinuation.finish()
        streams.pullContinuation.finish()
    }

    /// The streams, made at the first call.
    private var streams: Streams {
        book.withLock { _ in streamsLocked }
    }

    /// The streams, made at the first call; the caller holds `book`'s lock.
    private var streamsLocked: Streams {
        if let made { return made }
        let streams = Streams()
        made = streams
        return streams
    }
}

/// The places of an ``AskInbox``'s inputs.
private struct AskInboxBook {
    /// The place of the last input queued.
    var queued = 0
    /// The place of the input the loop took last.
    var taken = 0
    /// Pulls that joined an ask before the loop reached them.
    var joined: Set<Int> = []
}
