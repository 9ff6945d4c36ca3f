/// A change to the demo box during a scenario: what a tester turns to see the client cope.
public enum BoxKnob: Sendable, Hashable {
    /// Tomorrow's prices are (or stop being) late: not published today.
    case pricesLate(Bool)
    /// Tomorrow's prices appear at this local time of day, in minutes after midnight.
    case publishAt(minutes: Int)
    /// A device stops (or starts again) answering.
    case deviceQuiet(source: String, Bool)
    /// Every carrier drops now, mid-request or not.
    case cutCarriers
    /// The relay adds this latency in each direction.
    case relayLatency(Duration)
    /// The box restarts: uptime goes back near zero.
    case reboot
}
