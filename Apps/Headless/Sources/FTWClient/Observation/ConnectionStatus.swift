public import FTWSessionInterface

/// Where the connection to the box stands, as a person is told: every stage of the retry, nothing internal.
///
/// Read from the session's connection state and the stream's beats (``HeadlessClient/observeConnection()``), so a
/// status line can say "dialling (attempt 2)", "waiting for the box, due 13:02:33", "live", "stale since 10:02:07",
/// "reconnecting in 3 s" or "offline: the box ended the session; open the app again" without knowing the session's
/// rules. `hello_ok` alone is not live: the stream is live from its first beat.
public enum ConnectionStatus: Sendable, Hashable, CustomStringConvertible {
    /// Not in front, so no connection is wanted (before the first phase in front, or in the background).
    case idle
    /// Opening a carrier: attempt 1 on a return, more after failures.
    case dialing(attempt: Int)
    /// In this hour's room before the relay has moved the box there: it arrives at
    /// ``/FTWSessionInterface/BoxArrival/movesAtMs``.
    case awaitingBox(BoxArrival)
    /// The box is in the room and the Noise handshake runs, or hello awaits its answer.
    case handshaking
    /// The box answered hello; its first beat has not come yet (not live).
    case greeted
    /// Beats arrive within the stream's gap rule, since `sinceMs` (wall clock, Unix ms).
    case live(sinceMs: Int64)
    /// No beat within the gap rule: stale since `sinceMs`, the last beat at `lastBeatMs` (nil when none came).
    case stale(sinceMs: Int64, lastBeatMs: Int64?)
    /// The connection ended; the next dial starts at ``/FTWSessionInterface/RetryWait/nextTryAtMs`` (attempt and cause
    /// in the wait).
    case backingOff(RetryWait)
    /// Not connected and not about to be by the session's own backoff: why, and what a person can do.
    case offline(reason: SessionError, advice: String)

    /// The status of a session in `state` whose stream says `liveness`.
    ///
    /// - Parameters:
    ///   - state: The session's connection state (``/FTWSession/LiveSession/connectionState``).
    ///   - liveness: The stream's beats (``/FTWSession/LiveSession/liveness``); nil before its first word.
    public init(state: ConnectionState, liveness: StreamLiveness?) {
        switch (state, liveness) {
        case (.idle, _): self = .idle
        case (.dialing(let attempt), _): self = .dialing(attempt: attempt)
        case (.awaitingBox(let arrival), _): self = .awaitingBox(arrival)
        case (.handshaking, _): self = .handshaking
        case (.streaming, .live(let sinceMs)?): self = .live(sinceMs: sinceMs)
        case (.streaming, .stale(let sinceMs, let lastBeatMs)?): self = .stale(sinceMs: sinceMs, lastBeatMs: lastBeatMs)
        case (.streaming, nil): self = .greeted
        case (.backingOff(let wait), _): self = .backingOff(wait)
        case (.closed(let reason), _): self = .offline(reason: reason, advice: Self.advice(for: reason))
        }
    }

    /// What a person can do about a connection that is down and not retried on its own, by its cause.
    public static func advice(for reason: SessionError) -> String {
        switch reason.code {
        case .boxOffline:
            "the box is not at its relay: check that it has power and a network; the app goes live when it returns"
        case .refused: "the box no longer knows this phone: pair it again with a new code"
        case .incompatibleProtocol: "the box and the app speak no common protocol: update the app"
        case .terminated: "the box ended the session: open the app again to reconnect"
        case .relayNotTrusted: "the relay's identity did not verify: check the relay address and its certificate"
        default: "bring the app to the front again to reconnect"
        }
    }

    /// Whether the readings are live now.
    public var isLive: Bool {
        if case .live = self { true } else { false }
    }

    /// One line, instants in UTC: `live since 10:02:03 UTC`, `reconnecting: attempt 2 at 10:02:09 UTC (…)`.
    public var description: String {
        switch self {
        case .idle: "idle"
        case .dialing(let attempt): "dialling (attempt \(attempt))"
        case .awaitingBox(let arrival): "waiting for the box, due \(UTCTime(ms: arrival.movesAtMs))"
        case .handshaking: "greeting the box"
        case .greeted: "the box answered hello; waiting for its first beat"
        case .live(let sinceMs): "live since \(UTCTime(ms: sinceMs))"
        case .stale(let sinceMs, let lastBeatMs):
            "stale since \(UTCTime(ms: sinceMs))" + (lastBeatMs.map { " (last beat \(UTCTime(ms: $0)))" } ?? "")
        case .backingOff(let wait):
            "reconnecting: attempt \(wait.attempt) at \(UTCTime(ms: wait.nextTryAtMs)) (\(wait.because.message))"
        case .offline(let reason, let advice): "offline: \(reason.message); \(advice)"
        }
    }

    /// Seconds until the next try at `nowMs`, rounded up, for "reconnecting in 3 s"; nil unless backing off.
    public func secondsToNextTry(nowMs: Int64) -> Int64? {
        guard case .backingOff(let wait) = self else { return nil }
        return max(0, (wait.nextTryAtMs - nowMs + 999) / 1000)
    }
}
