/// The relay's close codes and control words (protocol.md §8.3): how a relay room says why it let us go.
///
/// The session reads them off `CarrierEvent.closed` to choose when to redial: a wrong or rotated epoch is a clock
/// correction, not a failure, so it redials sooner than the backoff would.
public enum RelayCloseCode {
    /// A bad join, text on a binary channel, or an oversize message.
    public static let badJoin = 4400
    /// Wrong epoch; the reason carries the relay's. Adopt it and redial at once.
    public static let wrongEpoch = 4409
    /// The epoch turned over; the reason carries the new one. Adopt it and redial after a short random wait.
    public static let rotated = 4410
    /// Busy: rate limited, room occupied, or the relay at its ceiling; the reason says which.
    public static let busy = 4429

    /// The reason of a 4429 that refuses a join over the address's allowance (30 per 60 s window): joins refused
    /// within the window cost nothing more, and the window turns at a time the client cannot see.
    public static let slowDown = "slow down"

    /// Whether a close is the relay's "slow down": 4429 with that reason.
    public static func isSlowDown(code: Int?, reason: String) -> Bool {
        code == busy && reason == slowDown
    }

    /// The relay's word for "the box is in the room".
    public static let ready = "ready"
    /// The relay's word for "the box left the room" (the socket stays up).
    public static let gone = "gone"

    /// The epoch a 4409 or 4410 close announces in its reason: a plain decimal integer, or the last word of the
    /// reason when it is one; nil when the reason names none.
    public static func announcedEpoch(in reason: String) -> Int64? {
        let words = reason.split(whereSeparator: \.isWhitespace)
        guard let last = words.last else { return nil }
        let digits = last.hasPrefix("-") ? last.dropFirst() : last[...]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(last)
    }
}
