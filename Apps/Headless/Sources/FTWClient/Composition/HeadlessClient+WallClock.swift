public import FTWBus
public import FTWCache
import FTWClockSeam
public import FTWSealInterface
import FTWSession
import FTWSessionInterface
import FTWSocketLoop

extension HeadlessClient {
    /// The client a phone runs for `paired`: the real clocks, dialling the relay the site was paired through (with
    /// verified TLS on a `wss://` relay, trusting the site's CA file besides the system's store), its services on the
    /// event loop its socket lives on (the process's shared loop), its deadlines on that loop's timer: a client that
    /// nothing asks to do anything wakes nobody.
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
        let loop = try? EventLoop.shared()
        let loopClock = loop.map { LoopClock(base: ContinuousClock(), loop: $0) }
        let clock: any Clock<Duration> = loopClock ?? ContinuousClock()
        return HeadlessClient(
            paired: paired,
            store: store,
            dialer: address.dialer(
                rendezvousSecret: paired.rendezvousSecret,
                caFile: paired.caFile,
                clock: clock,
                wallClock: SystemWallClock(),
                loop: loop
            ),
            clock: clock,
            deadlineSleep: loopClock.map(DeadlineSleep.moving) ?? .plain,
            wallClock: SystemWallClock(),
            random: SystemRandomSource(),
            policy: policy,
            log: log,
            executor: loop,
            sharing: loop
        )
    }
}
