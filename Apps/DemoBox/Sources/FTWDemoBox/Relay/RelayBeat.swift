import FTWNoise

/// The relay's heartbeat (relay/src/server.ts, `setInterval(#beat, heartbeatMs)`): the production relay looks for old
/// rooms to move at the hour's turn only on its beats, every 15 s from its process's start, so a room is moved at the
/// first beat at or after its offset, up to a beat late (protocol.md §8.3, "The hour's turn").
///
/// The phase is the relay's own: a phone cannot know it, and a demo relay draws one per start (`ftw-demobox`, at
/// random; a scenario, from its seed) so the phone meets a late move as it meets the production relay's.
public struct RelayBeat: Sendable, Hashable {
    /// Between two beats, in ms; 0 for a relay that moves each room at its offset exactly.
    public let periodMs: Int64
    /// Where the beats fall: at every Unix ms that is this far past a multiple of ``periodMs`` (`0 ..< periodMs`).
    public let phaseMs: Int64

    /// The production relay's period, at the phase of a relay started on a multiple of 15 s.
    public static let production = RelayBeat(checkedPeriodMs: RelaySchedule.beatMs, phaseMs: 0)

    /// No beat: every room moved at its offset exactly, for a wall-clock run that is not about the hour's turn.
    public static let none = RelayBeat(checkedPeriodMs: 0, phaseMs: 0)

    /// A beat every `periodMs` that falls `phaseMs` past each multiple of it (any whole number of ms: one on a beat
    /// names its phase); nil for a period below 0 or above the production relay's 15 s, since a phone waits for its
    /// box no longer than one production beat after the offset.
    public init?(periodMs: Int64, phaseMs: Int64) {
        guard (0...RelaySchedule.beatMs).contains(periodMs) else { return nil }
        self.init(checkedPeriodMs: periodMs, phaseMs: phaseMs)
    }

    private init(checkedPeriodMs periodMs: Int64, phaseMs: Int64) {
        self.periodMs = periodMs
        self.phaseMs = periodMs == 0 ? 0 : (phaseMs % periodMs + periodMs) % periodMs
    }

    /// The first beat at or after Unix ms `ms`: when a relay that has something to do from `ms` on does it.
    func firstBeat(atOrAfter ms: Int64) -> Int64 {
        guard periodMs > 0 else { return ms }
        let pastBeat = ((ms - phaseMs) % periodMs + periodMs) % periodMs
        guard pastBeat > 0 else { return ms }
        let (beat, overflow) = ms.addingReportingOverflow(periodMs - pastBeat)
        return overflow ? .max : beat
    }
}
