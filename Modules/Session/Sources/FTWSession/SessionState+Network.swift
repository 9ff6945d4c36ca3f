import FTWBus
import FTWSessionInterface

extension SessionState {
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
        let carried = link.approach ?? LinkStage.Approach()
        switch link.networkChanged() {
        case .watchStream:
            arm(.foregroundSilence, after: configuration.timing.foregroundSilence)
        case .redial(let watching):
            endConnection(
                reason: SessionError(.carrierLost, "the network changed: dialling again on the new path"),
                failing: SessionError(.carrierLost, "the network changed")
            )
            cancel(.redial)
            dial(carried, watchdog: watching)
            // A return's watchdog, if it was still waiting, watches the new dial: its path is as unproven.
            if watching != nil { arm(.foregroundSilence, after: configuration.timing.foregroundSilence) }
        }
    }
}
