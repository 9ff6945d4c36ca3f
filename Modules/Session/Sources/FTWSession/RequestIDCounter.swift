/// The request ids of one Noise session: u32, from 1, wrapping from `UInt32.max` back to 1 (0 is never used, as
/// the reference client never uses it).
struct RequestIDCounter: Sendable, Hashable {
    private var next: UInt32

    /// A counter whose first id is `first` (1 on the wire; 0 reads as 1).
    init(first: UInt32) {
        next = max(first, 1)
    }

    /// The next id.
    mutating func take() -> UInt32 {
        let id = next
        next = id == .max ? 1 : id + 1
        return id
    }
}
