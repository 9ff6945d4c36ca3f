import FTWSessionInterface

extension SessionState {
    /// What the watchdog's wait for a first message counts from, as its verdict says it.
    enum WatchdogMoment: String, Sendable {
        /// A return to the front: a phone's NAT mapping may have died in the background.
        case returnToFront = "the return"
        /// A network change under a live stream: the old network's path may be gone.
        case networkChange = "the network change"
    }

    /// The platform says the network changed (Wi-Fi to cellular, a new address: `NWPathMonitor` on Apple platforms,
    /// a netlink watch on Linux). A dial, a backoff, or a carrier not yet live belongs to the old path: it is dropped
    /// and the session dials at once on the new one, the path's failures forgotten (they were the old path's). A live
    /// stream may well have survived (a path gained, not lost), and tearing it down would cost the box a handshake:
    /// it is checked instead, by the watchdog's wait for a first message, as after a return; the box's frames come
    /// every second, so a silence that long means the old path died.
    mutating func networkChanged() {
        guard wantsCarrier else { return }
        log("session", "the network changed")
        reconnect.pathChanged()
        if connection?.stage == .streaming {
            connection?.anythingArrived = false
            watchdogFrom = .networkChange
            arm(.foregroundSilence, after: configuration.timing.foregroundSilence)
            return
        }
        let watching = timers[.foregroundSilence] != nil
        endConnection(
            reason: SessionError(.carrierLost, "the network changed: dialling again on the new path"),
            failing: SessionError(.carrierLost, "the network changed")
        )
        cancel(.redial)
        dialIfWanted()
        // A return's watchdog, if it was still waiting, watches the new dial: its path is as unproven.
        if watching { arm(.foregroundSilence, after: configuration.timing.foregroundSilence) }
    }
}
