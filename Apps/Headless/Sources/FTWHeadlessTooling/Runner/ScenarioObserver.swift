import FTWBus
import FTWClient
import FTWClockSeam
import FTWDemoBox
import FTWSealInterface
import FTWSessionInterface

/// Watches a scenario as it plays, for checks a stay-by-stay report cannot make (the soak's invariants): every step
/// with its time, each process's client while it runs, the sealed store's writes, and both sides' request lists.
///
/// The world calls it in order on its simulated clock; the `follow` calls run as tasks beside the app until the
/// process (or the world) ends, so the observer sees the buses exactly as the app publishes them.
protocol ScenarioObserver: Sendable {
    /// The world starts on `clock`.
    func began(clock: any WallClock) async
    /// A step is about to run at `atMs`; `client` is the running app, if any.
    func step(_ step: ScenarioStep, atMs: Int64, client: HeadlessClient?) async
    /// Follows the sealed store's bus until it ends or the task is cancelled.
    func follow(store events: BusStream<SealEvent>) async
    /// Follows one process's buses (session, models, history) until the task is cancelled.
    func follow(client: HeadlessClient) async
    /// A process ends (killed, or the scenario is over): its asks log and its carriers' traffic are final.
    func ended(_ client: HeadlessClient, atMs: Int64) async
    /// The scenario is over: every request frame the box received.
    func finished(received: [ReceivedRequest]) async
}
