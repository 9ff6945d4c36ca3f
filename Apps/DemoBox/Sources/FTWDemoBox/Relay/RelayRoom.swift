import FTWSessionInterface

/// The household's app streams on the relay, each a one-way pipe of what the relay hands that phone: up to four in a
/// room. Most are in the room the box's uplink sits in, and box output goes to each of them (phones tell their own
/// frames apart by decrypting); a stream that joined a room the box has yet to come into (the hour's turn, a restart)
/// waits there, hearing nothing until the box arrives.
struct RelayRoom: Sendable {
    static let maxStreams = 4

    /// One phone's stream into the room.
    struct Stream: Sendable {
        let id: Int
        /// The epoch it joined under; nil for an in-process stream that joined without a path (a test of the box
        /// alone), which the relay's hours never move.
        var epoch: Int64?
        /// Whether a skewed relay clock closes it (4410): the WebSocket streams (`RelayModel.skew(hours:)`).
        let followsTheHour: Bool
        /// Whether the box's uplink has yet to come into its room: it hears no box output, and what it sends reaches
        /// no box.
        var waitsForBox: Bool
        let continuation: AsyncStream<CarrierEvent>.Continuation
        /// Told of the close the relay hands the phone, as a WebSocket carrier reports a close frame.
        let onClose: (@Sendable (Int, String) -> Void)?
    }

    private(set) var streams: [Stream] = []
    private var nextID = 1

    /// Adds a stream to `epoch`'s room, or nil when four are already in it.
    mutating func join(
        epoch: Int64?,
        followsTheHour: Bool,
        waitsForBox: Bool,
        onClose: (@Sendable (Int, String) -> Void)?
    ) -> (id: Int, events: AsyncStream<CarrierEvent>)? {
        guard streams.count(where: { $0.epoch == epoch }) < Self.maxStreams else { return nil }
        let (events, continuation) = AsyncStream.makeStream(of: CarrierEvent.self)
        let id = nextID
        nextID += 1
        streams.append(
            Stream(
                id: id,
                epoch: epoch,
                followsTheHour: followsTheHour,
                waitsForBox: waitsForBox,
                continuation: continuation,
                onClose: onClose
            )
        )
        return (id, events)
    }

    func contains(_ id: Int) -> Bool {
        streams.contains { $0.id == id }
    }

    /// Whether the stream is in the box's room: what it sends reaches the box.
    func reachesBox(_ id: Int) -> Bool {
        streams.contains { $0.id == id && !$0.waitsForBox }
    }

    /// Hands `event` to one stream, if it is still in the room.
    func deliver(_ event: CarrierEvent, to id: Int) {
        streams.first { $0.id == id }?.continuation.yield(event)
    }

    /// Hands `event` to every stream in the box's room.
    func broadcast(_ event: CarrierEvent) {
        for stream in streams where !stream.waitsForBox { stream.continuation.yield(event) }
    }

    /// Sets every stream `matching` waiting for the box or not; returns the ids whose state changed.
    mutating func setWaiting(_ waits: Bool, where matching: (Stream) -> Bool) -> [Int] {
        var changed: [Int] = []
        for index in streams.indices where streams[index].waitsForBox != waits && matching(streams[index]) {
            streams[index].waitsForBox = waits
            changed.append(streams[index].id)
        }
        return changed
    }

    /// Names every joined stream's room `epoch`: the relay moved the box's room with them in it (a skewed clock).
    mutating func retag(where matching: (Stream) -> Bool, epoch: Int64) {
        for index in streams.indices where streams[index].epoch != nil && matching(streams[index]) {
            streams[index].epoch = epoch
        }
    }

    /// Takes a stream out of the room; its events end after `closing`, when given.
    @discardableResult
    mutating func remove(_ id: Int, closing: CarrierEvent? = nil) -> Stream? {
        guard let index = streams.firstIndex(where: { $0.id == id }) else { return nil }
        let stream = streams.remove(at: index)
        if let closing {
            if case .closed(let code, let reason) = closing { stream.onClose?(code, reason) }
            stream.continuation.yield(closing)
        }
        stream.continuation.finish()
        return stream
    }

    /// Closes every stream `matching` with `code` and `reason`.
    mutating func close(where matching: (Stream) -> Bool = { _ in true }, code: Int, reason: String) {
        for stream in streams where matching(stream) {
            remove(stream.id, closing: .closed(code: code, reason: reason))
        }
    }

    /// A stream that is closed before it opens: what a refused join gets.
    static func refused(code: Int, reason: String) -> AsyncStream<CarrierEvent> {
        let (events, continuation) = AsyncStream.makeStream(of: CarrierEvent.self)
        continuation.yield(.closed(code: code, reason: reason))
        continuation.finish()
        return events
    }
}
