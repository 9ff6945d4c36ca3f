/// One ring's points as the ring file last held them: the `(ΔΔt, Δv)` bytes of every point after the oldest, and
/// the ring's segments.
///
/// The ring file is written every 15 s while the stream runs. In 15 s a ring at 1 Hz gains 15 points and loses 15
/// from its head; the bytes of the points between stay exactly as they were (each depends only on the point and the
/// two before it), so a write keeps them and encodes only the new points and the one after the new head; it finds
/// where a point's bytes start by stepping over the varints before it. Points are told apart by their sequence
/// number in the ring (``TraceRing/Cursor/appended``).
struct RingEncoding {
    /// Where a stretch of consecutive points from one source starts, and its first point's flags in the file.
    struct Segment {
        var start: UInt64
        var flags: UInt8
    }

    /// The sequence number of the oldest point when the bytes were made: its time and value lead the field, and
    /// its successor's time step was written against a step of zero.
    var firstSequence: UInt64 = 0
    /// One past the newest point encoded; nothing is held when it is not past ``firstSequence``.
    var endSequence: UInt64 = 0
    /// The segments of points `firstSequence ..< endSequence`, in order.
    var segments: [Segment] = []
    /// The bytes of points `firstSequence + 1 ..< endSequence`, in order: two varints each.
    var points: [UInt8] = []

    /// Where the bytes of point `sequence` start, `from` being where those of point `at` start.
    func start(of sequence: UInt64, from: Int = 0, at: UInt64? = nil) -> Int {
        var offset = from
        var varints = 2 * Int(sequence - (at ?? firstSequence + 1))
        while varints > 0 {
            if points[offset] & 0x80 == 0 { varints -= 1 }
            offset += 1
        }
        return offset
    }
}
