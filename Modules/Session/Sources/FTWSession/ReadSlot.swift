import FTWBoxProtocol
import FTWSessionInterface

/// The box's one API slot and the reads waiting for it, as a value (cache.md §2).
///
/// One read holds the slot at a time (sent and waiting, or waiting to be sent again after a busy refusal); the rest
/// wait in ``ReadOrder``, first come first served within a class. Two equal reads share one: a read equal to the one
/// holding the slot joins it, a read equal to a queued one joins that and may raise its place. The slot knows its
/// readers only by waiter id; the session owns their continuations and does the sending and the timing.
struct ReadSlot: Sendable {
    /// Who is waiting for an answer: an id the session maps to a continuation.
    typealias WaiterID = Int

    /// A read waiting for the slot.
    struct Queued: Sendable {
        var request: ReadRequest
        var order: ReadOrder
        /// When it was queued, for first come first served within its class.
        var arrival: Int
        var waiters: [WaiterID]
    }

    /// The read holding the slot, and what of its answer has landed.
    struct Held: Sendable {
        var request: ReadRequest
        var order: ReadOrder
        /// The request id of the frame on the wire.
        var id: UInt32
        var waiters: [WaiterID]
        /// The waiters that joined it once it was on the wire: its failure is not a request of theirs.
        var sharers: Set<WaiterID> = []
        /// How many busy refusals it has had.
        var busyRefusals = 0
        /// True between a busy refusal and the retry: nothing of ours is on the wire.
        var isWaitingToRetry = false
        /// History tiles in arrival order.
        var chunks: [HistChunk] = []
        /// The API answer's head, once it arrived.
        var head: APIHead?
        /// The API answer's body so far, as its chunks: joined once at `api.end`, so a body that grows to the cap
        /// is never reallocated (and a refused one never copied) on the way.
        var bodyChunks: [[UInt8]] = []
        /// The bytes in ``bodyChunks``.
        var bodyBytes = 0
        /// The `api.chunk.seq` expected next.
        var nextChunk: UInt32 = 0
    }

    /// Where a new reader ended up.
    enum Joined: Sendable {
        /// In the queue, alone or sharing a queued read.
        case queued
        /// Sharing the read holding the slot; these tiles had already landed.
        case sharingHeld(landed: [HistChunk])
    }

    private(set) var queue: [Queued] = []
    /// The read holding the slot; the answers extension moves it along.
    var held: Held?
    private var arrivals = 0

    /// Adds a reader of `request`, sharing an equal read when there is one.
    mutating func add(_ request: ReadRequest, order: ReadOrder, waiter: WaiterID) -> Joined {
        if var held, held.request == request {
            held.waiters.append(waiter)
            held.sharers.insert(waiter)
            self.held = held
            return .sharingHeld(landed: held.chunks)
        }
        if let index = queue.firstIndex(where: { $0.request == request }) {
            queue[index].waiters.append(waiter)
            queue[index].order = min(queue[index].order, order)
            return .queued
        }
        arrivals += 1
        queue.append(Queued(request: request, order: order, arrival: arrivals, waiters: [waiter]))
        return .queued
    }

    /// Forgets a reader whose caller went away; a queued read nobody waits for any more is dropped (one on the wire
    /// stays: it cannot be called back).
    mutating func remove(_ waiter: WaiterID) {
        held?.waiters.removeAll { $0 == waiter }
        for index in queue.indices { queue[index].waiters.removeAll { $0 == waiter } }
        queue.removeAll { $0.waiters.isEmpty }
    }

    /// The read that leaves next: the earliest in ``ReadOrder``, then the first asked.
    var next: Queued? {
        queue.min { ($0.order, $0.arrival) < ($1.order, $1.arrival) }
    }

    /// Moves the next read into the slot under request id `id`.
    ///
    /// - Returns: The read now holding the slot, or nil when the slot is taken or nothing waits.
    mutating func sendNext(id: UInt32) -> Held? {
        guard held == nil, let next, let index = queue.firstIndex(where: { $0.arrival == next.arrival }) else {
            return nil
        }
        queue.remove(at: index)
        let sent = Held(request: next.request, order: next.order, id: id, waiters: next.waiters)
        held = sent
        return sent
    }

    /// Sends the held read again, after a busy refusal, under a new request id.
    mutating func resend(id: UInt32) -> Held? {
        guard var held, held.isWaitingToRetry else { return nil }
        held.id = id
        held.isWaitingToRetry = false
        self.held = held
        return held
    }

    /// Frees the slot.
    ///
    /// - Returns: The read that held it, whose readers the caller settles.
    mutating func release() -> Held? {
        defer { held = nil }
        return held
    }

    /// Empties the queue (the session cannot go on).
    ///
    /// - Returns: The readers who were waiting.
    mutating func drainQueue() -> [WaiterID] {
        defer { queue.removeAll() }
        return queue.flatMap(\.waiters)
    }
}
