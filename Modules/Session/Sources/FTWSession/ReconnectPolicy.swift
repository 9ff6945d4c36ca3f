import FTWClockSeam

/// When to dial again after a connection ends: full-jitter backoff for failures (the carrier's for a failed path, the
/// handshake's for a box that did not answer on a path that works), at once for an epoch correction, a short random
/// wait for an epoch rotation, a few seconds for the relay's "slow down".
///
/// Full jitter (`random × min(cap, base · 2^attempt)`) spreads phones out so a relay that comes back is not met by
/// all of them in the same second. The reference app has two such backoffs, one per layer (protocol.md §8.3, from
/// its `RelayCarrier` and `NoiseCarrier`): the carrier redials a socket that closed or never opened after
/// `random × min(60 s, 500 ms · 2^attempt)`, and the Noise layer retries a handshake the box did not answer after
/// `random × min(60 s, 3 s · 2^attempt)`. The path's failures are often over in a moment (a proxy restart, a lost
/// network coming back); a box that is in its room and silent is busy, restarting or refusing, and asking it again
/// within half a second only adds to its load. So a failure is counted where it happened: on the path (a dial that
/// failed, a carrier that closed) or at the box (the handshake's or hello's deadline passed, or its answer did not
/// read), and each has its own attempts, base and cap. Only a delivered frame proves both work, so only that (or a
/// return from the background) resets the attempts.
///
/// A "slow down" (4429) is no failure of the path: the relay's join allowance for this address is spent until its
/// window turns, at a time the phone cannot see, and joins it refuses within the window cost nothing more. So the
/// next join waits between half and all of ``SessionConfiguration/Timing/slowDownRetry`` (jittered, so a household's
/// phones do not knock together), whatever the attempts so far, and the attempts do not grow: the phone is in within
/// that wait and one handshake of the window turning, rather than a minute's backoff later.
struct ReconnectPolicy: Sendable {
    /// Failed attempts of the path (dials, carriers) since the last delivered frame.
    private(set) var pathFailures = 0
    /// Failed attempts of the box (handshakes, hellos) since the last delivered frame.
    private(set) var boxFailures = 0
    /// 4409 corrections in a row since the box was last in the room.
    private(set) var corrections = 0

    let path: Backoff
    let box: Backoff
    let rotationJitter: Duration
    let slowDownRetry: Duration
    let correctionLimit: Int

    /// One full-jitter backoff: its first ceiling, doubled with each failure, and the largest.
    struct Backoff: Sendable {
        let base: Duration
        let cap: Duration

        /// The wait after `failures` failures in a row, `random` in `0 ..< 1`.
        func delay(after failures: Int, random: Double) -> Duration {
            ReconnectPolicy.scale(min(cap, base * (1 << min(failures, 16))), by: random)
        }
    }

    init(timing: SessionConfiguration.Timing, correctionLimit: Int) {
        path = Backoff(base: timing.backoffBase, cap: timing.backoffCap)
        box = Backoff(base: timing.handshakeBackoffBase, cap: timing.handshakeBackoffCap)
        rotationJitter = timing.rotationJitter
        slowDownRetry = timing.slowDownRetry
        self.correctionLimit = correctionLimit
    }

    /// Failed attempts of either kind since the last delivered frame: the next dial is attempt `attempt + 1`.
    var attempt: Int { pathFailures + boxFailures }

    /// The wait before the next dial after the path failed: a carrier closed with `closeCode` and `reason`, or no code
    /// when no carrier closed (the dial failed, the carrier ended under us).
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
            defer { pathFailures = min(pathFailures + 1, 16) }
            return path.delay(after: pathFailures, random: random)
        }
    }

    /// The wait before the next dial after the box, in its room on a path that works, did not answer in time (the
    /// handshake's or hello's deadline) or answered what does not read.
    mutating func delayAfterBoxFailed(random: Double) -> Duration {
        defer { boxFailures = min(boxFailures + 1, 16) }
        return box.delay(after: boxFailures, random: random)
    }

    /// A frame of ours arrived: the path and the box work.
    mutating func frameDelivered() {
        pathFailures = 0
        boxFailures = 0
    }

    /// The network changed: the path's failures were the old path's, and say nothing of the new one.
    mutating func pathChanged() {
        pathFailures = 0
    }

    /// The box is in the room: the epoch we dialled was right.
    mutating func roomJoined() {
        corrections = 0
    }

    /// A return from the background starts afresh.
    mutating func reset() {
        frameDelivered()
        corrections = 0
    }

    /// `duration × random` in whole milliseconds; `random` is in `0 ..< 1`.
    fileprivate static func scale(_ duration: Duration, by random: Double) -> Duration {
        .milliseconds(Int64((Double(duration.wholeMilliseconds) * random).rounded(.down)))
    }
}
