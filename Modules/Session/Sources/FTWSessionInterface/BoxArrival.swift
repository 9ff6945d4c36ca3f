/// When the box comes into this hour's relay room, for a phone that joined the room before it.
///
/// At the top of each hour the relay accepts joins for the new hour's room only, and moves each box still in the old
/// room at a moment of its own within the first five minutes, on the first beat of its 15 s heartbeat at or after
/// that moment; the box rejoins a few seconds later (protocol.md §8.3, "The hour's turn"). Until then the new room is
/// empty however often a phone dials it. The app holds the rendezvous secret, so it knows that moment to the second,
/// though not the relay's beat: the wait has an end a person can be told ("Live within 2 min"), between
/// ``movesAtMs`` and ``dueByMs``, and it is not an outage.
public struct BoxArrival: Sendable, Hashable {
    /// The earliest the relay moves the box to this hour's room (it closes the old room with 4410), Unix ms: the old
    /// room's offset, if a beat of the relay falls on it. "The box moves to this hour's room between HH:MM:SS (here)
    /// and HH:MM:SS (``dueByMs``)".
    public var movesAtMs: Int64
    /// The latest the box should be in the room: ``movesAtMs`` plus one beat of the relay (it may move the room up to
    /// a beat late) plus the box's own random wait before it rejoins. The session's deadlines for an empty room count
    /// from here, and nothing redials before.
    public var dueByMs: Int64

    /// Makes an arrival.
    ///
    /// - Parameters:
    ///   - movesAtMs: The earliest the relay moves the box, Unix ms.
    ///   - dueByMs: The latest the box should have rejoined, Unix ms.
    public init(movesAtMs: Int64, dueByMs: Int64) {
        self.movesAtMs = movesAtMs
        self.dueByMs = dueByMs
    }
}
