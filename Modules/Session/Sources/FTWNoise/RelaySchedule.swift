/// The relay's hours: how long an epoch lasts, and over how long after an epoch begins the relay moves the rooms still
/// on the old epoch's handles into it (protocol.md §8.3, "The hour's turn").
///
/// The production relay's are ``production``. A demo relay that shortens them for a wall-clock test (`ftw-demobox
/// --epoch-ms`, `--rotation-spread`) and the phone that joins it are both handed the same schedule explicitly: nothing
/// learns a schedule from the relay, since a relay that could name the epoch's length could make a phone publish
/// handles of its choosing.
public struct RelaySchedule: Sendable, Hashable {
    /// The length of one epoch in ms: an hour in production (`epoch = floor(nowMs / 3600000)`).
    public let epochMs: Int64
    /// How long after an epoch begins the relay has moved every old room, in ms (relay/src/server.ts,
    /// `rotateSpreadMs`): five minutes in production.
    public let rotationSpreadMs: Int64

    /// The production relay's heartbeat, in ms (relay/src/server.ts, `heartbeatMs`): it pings every socket and looks
    /// for old rooms to move only on this beat, whose phase is set by the process's start, so a room is moved at the
    /// first beat at or after its offset, up to one beat late (protocol.md §8.3, "The hour's turn"). A phone cannot
    /// know the phase: it expects its box up to a whole beat after the offset.
    public static let beatMs: Int64 = 15_000

    /// The production relay's: one-hour epochs, old rooms moved within five minutes of the hour.
    public static let production = RelaySchedule(checkedEpochMs: 3_600_000, rotationSpreadMs: 300_000)

    /// A schedule with epochs of `epochMs` whose turn is spread over `rotationSpreadMs`; nil unless the epoch is at
    /// least a second long and the spread ends inside it (`0 ≤ spread < epoch`), since a room moved after the next
    /// turn began would never be the one a phone could reach.
    public init?(epochMs: Int64, rotationSpreadMs: Int64) {
        guard epochMs >= 1_000, (0..<epochMs).contains(rotationSpreadMs) else { return nil }
        self.init(checkedEpochMs: epochMs, rotationSpreadMs: rotationSpreadMs)
    }

    private init(checkedEpochMs epochMs: Int64, rotationSpreadMs: Int64) {
        self.epochMs = epochMs
        self.rotationSpreadMs = rotationSpreadMs
    }

    /// The epoch of Unix time `nowMs`: floor division, so times before 1970 fall in negative epochs rather than
    /// sharing epoch 0 with the one after it.
    public func epoch(nowMs: Int64) -> Int64 {
        let (quotient, remainder) = nowMs.quotientAndRemainder(dividingBy: epochMs)
        return remainder < 0 ? quotient - 1 : quotient
    }

    /// When `epoch` begins, Unix ms; nil for an epoch whose start no `Int64` holds (a relay's correction never names
    /// one within reach of our clock).
    public func startMs(ofEpoch epoch: Int64) -> Int64? {
        let (startMs, overflow) = epoch.multipliedReportingOverflow(by: epochMs)
        return overflow ? nil : startMs
    }

    /// When, in ms after its epoch ends, the relay moves the room still on `handle` to the next epoch: the handle's
    /// first four hex digits as a fraction of 65536, times the spread, rounded down (relay/src/server.ts,
    /// `rotationOffsetMs`). A handle that does not begin with four hex digits (none of ours) reads as 0, since the
    /// relay's `parseInt` makes it a timer of no delay.
    ///
    /// - Parameter handle: The room handle of the epoch before the turn.
    public func rotationOffsetMs(handle: String) -> Int64 {
        let leading = handle.prefix(4)
        guard leading.count == 4, let value = UInt16(leading, radix: 16) else { return 0 }
        return Int64(value) * rotationSpreadMs / 65_536
    }
}
