/// The gap rule of one live source, judged in O(1): a beat notes its time, and a judge asked at any moment says
/// whether the source went stale and when to ask again.
///
/// No timer runs per beat: the owner keeps one deadline and re-arms it lazily when it fires (the rule's end, counted
/// from the last beat), so a stream of beats costs one store each and one wake per gap rule, never an allocation.
package struct BeatWatch: Sendable, Hashable {
    /// The longest silence that is still live, in ms.
    package let gapMs: Int64
    /// When the watch began (`hello_ok`), wall ms: the silence before the first beat counts from here.
    private let startedMs: Int64
    /// The newest beat, wall ms; nil before the first.
    private(set) var lastBeatMs: Int64?
    /// What was last said.
    package private(set) var liveness: StreamLiveness?

    /// Starts watching at `atMs`: not live until the first beat.
    package init(gapMs: Int64, atMs: Int64) {
        self.gapMs = gapMs
        startedMs = atMs
    }

    /// The box stream's gap rule for a beat of `beatMs`: three and a half beats, so one or two lost frames never
    /// break it and a stalled stream does. The one place the number is written.
    package static func boxGapMs(beatMs: Int64) -> Int64 {
        beatMs * 7 / 2
    }

    /// A beat arrived at `atMs`; returns the change when it made the source live (its first, or the first after a
    /// silence).
    package mutating func beat(atMs: Int64) -> StreamLiveness? {
        lastBeatMs = atMs
        if case .live = liveness { return nil }
        liveness = .live(sinceMs: atMs)
        return liveness
    }

    /// When the source goes stale if no beat comes first: the last beat (or the start) plus the rule, wall ms.
    package var silentFromMs: Int64 { (lastBeatMs ?? startedMs) + gapMs }

    /// Judges the silence at `atMs`: the change to stale once the rule has passed since the last beat (or the start),
    /// and how long until it should be judged again (nil once stale: the next beat re-arms it).
    package mutating func judge(atMs: Int64) -> (change: StreamLiveness?, againInMs: Int64?) {
        let dueMs = silentFromMs
        guard atMs >= dueMs else { return (nil, dueMs - atMs) }
        if case .stale = liveness { return (nil, nil) }
        liveness = .stale(sinceMs: dueMs, lastBeatMs: lastBeatMs)
        return (liveness, nil)
    }
}
