import SessionInterface

/// The relay room the box's uplink sits in: up to four app streams, each a one-way pipe of what the relay hands
/// that phone. Box output goes to every stream; phones tell their own frames apart by decrypting.
struct RelayRoom: Sendable {
    static let maxStreams = 4

    /// One phone's stream into the room.
    struct Stream: Sendable {
        let id: Int
        /// The epoch it joined under; nil for an in-process stream that joined without a path.
        let epoch: Int64?
        /// Whether the relay's hourly turn closes it (4410): the WebSocket streams. In-process streams are closed
        /// only by a rotation the scenario asks for (see `RelayModel.turnIfDue`).
        let followsTheHour: Bool
        let continuation: AsyncStream<CarrierEvent>.Continuation
        /// Told of the close the relay hands the phone, as a WebSocket carrier reports a close frame.
        let onClose: (@Sendable (Int, String) -> Void)?
    }

    private(set) var streams: [Stream] = []
    private var nextID = 1

    /// Adds a stream, or nil when four are already in the room.
    mutating func join(
        epoch: Int64?,
        followsTheHour: Bool,
        onClose: (@Sendable (Int, String) -> Void)?
    ) -> (id: Int, events: AsyncStream<CarrierEvent>)? {
        guard streams.count < Self.maxStreams else { return nil }
        let (events, continuation) = AsyncStream.makeStream(of: CarrierEvent.self)
        let id = nextID
        nextID += 1
        streams.append(
            Stream(id: id, epoch: epoch, followsTheHour: followsTheHour, continuation: continuation, onClose: onClose)
        )
        return (id, events)
    }

    func contains(_ id: Int) -> Bool {
        streams.contains { $0.id == id }
    }

    /// Hands `event` to one stream, if it is still in the room.
    func deliver(_ event: CarrierEvent, to id: Int) {
        streams.first { $0.id == id }?.continuation.yield(event)
    }

    /// Hands `event` to every stream in the room.
    func broadcast(_ event: CarrierEvent) {
        for stream in streams { stream.continuation.yield(event) }
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
