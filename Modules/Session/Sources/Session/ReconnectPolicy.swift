import ClockSeam

/// When to dial again after a connection ends: full-jitter backoff for failures, at once for an epoch correction,
/// a short random wait for an epoch rotation, a few seconds for the relay's "slow down".
///
/// Full jitter (`random × min(cap, base · 2^attempt)`) spreads phones out so a relay that comes back is not met by
/// all of them in the same second. Only a delivered frame proves the path works, so only that resets the attempts.
///
/// A "slow down" (4429) is no failure of the path: the relay's join allowance for this address is spent until its
/// window turns, at a time the phone cannot see, and joins it refuses within the window cost nothing more. So the
/// next join waits between half and all of ``SessionConfiguration/Timing/slowDownRetry`` (jittered, so a household's
/// phones do not knock together), whatever the attempts so far, and the attempts do not grow: the phone is in within
/// that wait and one handshake of the window turning, rather than a minute's backoff later.
struct ReconnectPolicy: Sendable {
    /// Failed attempts since the last delivered frame.
    private(set) var attempt = 0
    /// 4409 corrections in a row since the box was last in the room.
    private(set) var corrections = 0

    let base: Duration
    let cap: Duration
    let rotationJitter: Duration
    let slowDownRetry: Duration
    let correctionLimit: Int

    init(timing: SessionConfiguration.Timing, correctionLimit: Int) {
        base = timing.backoffBase
        cap = timing.backoffCap
        rotationJitter = timing.rotationJitter
        slowDownRetry = timing.slowDownRetry
        self.correctionLimit = correctionLimit
    }

    /// The wait before the next dial after a connection ended with `closeCode` and `reason` (no code when no carrier
    /// closed: a dial or a handshake failed).
    mutating func delay(afterClose closeCode: Int?, reason: String = "", random: Double) -> Duration {
        if RelayCloseCode.isSlowDown(code: closeCode, reason: reason) {
            return Self.scale(slowDownRetry, by: 0.5 + random / 2)
        }
        switch closeCode {
        case RelayCloseCode.rotated:
            return Self.scale(rotationJitter, by: random)
        case RelayCloseCode.wrongEpoch where corrections < correctionLimit:
            corrections += 1
            return .zero
        default:
            return backoff(random: random)
        }
    }

    /// A frame of ours arrived: the path works.
    mutating func frameDelivered() {
        attempt = 0
    }

    /// The box is in the room: the epoch we dialled was right.
    mutating func roomJoined() {
        corrections = 0
    }

    /// A return from the background starts afresh.
    mutating func reset() {
        attempt = 0
        corrections = 0
    }

    private mutating func backoff(random: Double) -> Duration {
        let ceiling = min(cap, base * (1 << min(attempt, 16)))
        attempt = min(attempt + 1, 16)
        return Self.scale(ceiling, by: random)
    }

    /// `duration × random` in whole milliseconds; `random` is in `0 ..< 1`.
    private static func scale(_ duration: Duration, by random: Double) -> Duration {
        .milliseconds(Int64((Double(duration.wholeMilliseconds) * random).rounded(.down)))
    }
}
