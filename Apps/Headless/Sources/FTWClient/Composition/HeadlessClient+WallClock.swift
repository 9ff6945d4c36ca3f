public import Bus
public import Cache
import ClockSeam
public import SealInterface
import Session
import SessionInterface

extension HeadlessClient {
    /// The client a phone runs for `paired`: the real clocks, dialling the relay the site was paired through (with
    /// verified TLS on a `wss://` relay, trusting the site's CA file besides the system's store).
    ///
    /// - Parameters:
    ///   - paired: The site, as pairing left it.
    ///   - store: The phone's sealed files.
    ///   - policy: The rule for asking again (`.ageKeyed`, this client's; `.everyReturn`, the old app's).
    ///   - log: Where the session's lines go: category `asks` (every request frame sent) and `session` (the
    ///     connection's story); see docs/composing.md. Nothing is logged by default.
    /// - Throws: ``EnrolmentError`` `.relay` when the site has no relay address (it was paired in-process).
    public static func onWallClock(
        paired: PairedSite,
        store: any SealedStore,
        policy: AskPolicy = .ageKeyed,
        log: any LogSink = DiscardingLogSink()
    ) throws(EnrolmentError) -> HeadlessClient {
        let address = try RelayAddress(parsing: paired.relay ?? "")
        let clock = ContinuousClock()
        return HeadlessClient(
            paired: paired,
            store: store,
            dialer: address.dialer(
                rendezvousSecret: paired.rendezvousSecret,
                caFile: paired.caFile,
                clock: clock,
                wallClock: SystemWallClock()
            ),
            clock: clock,
            wallClock: SystemWallClock(),
            random: SystemRandomSource(),
            policy: policy,
            log: log
        )
    }
}
