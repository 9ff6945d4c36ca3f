/// When the box comes into this hour's relay room, for a phone that joined the room before it.
///
/// At the top of each hour the relay accepts joins for the new hour's room only, and moves each box still in the old
/// room at a moment of its own within the first five minutes; the box rejoins a few seconds later (protocol.md §8.3,
/// "The hour's turn"). Until then the new room is empty however often a phone dials it. The app holds the rendezvous
/// secret, so it knows that moment to the second: the wait has an end a person can be told ("Live in 1 min 40 s"),
/// and it is not an outage.
public struct BoxArrival: Sendable, Hashable {
    /// When the relay moves the box to this hour's room (it closes the old room with 4410), Unix ms: "the box moves to
    /// this hour's room at HH:MM:SS".
    public var movesAtMs: Int64
    /// The latest the box should be in the room: ``movesAtMs`` plus the box's own random wait before it rejoins.
    /// The session's deadlines for an empty room count from here.
    public var dueByMs: Int64

    /// Makes an arrival.
    ///
    /// - Parameters:
    ///   - movesAtMs: When the relay moves the box, Unix ms.
    ///   - dueByMs: The latest the box should have rejoined, Unix ms.
    public init(movesAtMs: Int64, dueByMs: Int64) {
        self.movesAtMs = movesAtMs
        self.dueByMs = dueByMs
    }
}
