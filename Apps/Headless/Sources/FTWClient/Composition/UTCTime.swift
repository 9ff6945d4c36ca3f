import FTWClockSeam

/// A wall-clock instant as `HH:MM:SS UTC`, for the one-line texts a person reads; UTC so the text is the same on
/// every machine, printed as every instant the client prints (``AsOf/utc(_:milliseconds:)``).
struct UTCTime: CustomStringConvertible {
    /// Unix ms.
    let ms: Int64

    /// `HH:MM:SS UTC`.
    var description: String { AsOf.utc(ms, milliseconds: false) }
}
