/// What the return's watchdog counts from, as its verdict says it.
enum WatchdogMoment: String, Sendable {
    /// A return to the front: a phone's NAT mapping may have died in the background.
    case returnToFront = "the return"
    /// A network change under a live stream: the old network's path may be gone.
    case networkChange = "the network change"
}
