import FTWCache
import FTWClient
import FTWClockSeam
import FTWDemoBox
import FTWSeal

/// Where a scenario plays: the time it runs on and the box it talks to.
///
/// The simulated stage is the embedded demo box on a simulated clock, whose received requests are visible; the
/// wall-clock stage is a paired box in another process, reached through its relay, whose received requests are
/// not, and whose knobs this process cannot turn.
protocol ScenarioStage: Sendable {
    /// Now on the stage's wall clock (Unix ms).
    var nowMs: Int64 { get }
    /// The stage's wall clock, for observers that time what they see.
    var wallClock: any WallClock { get }
    /// Lets everything due at this instant happen.
    func settle() async
    /// Lets `duration` pass.
    func advance(by duration: Duration) async
    /// Runs the stage's own services (the embedded box) until cancelled.
    func run() async throws
    /// Turns a box knob; returns a note when the stage cannot.
    func turn(_ knob: BoxKnob) async -> String?
    /// Has the relay say a word; returns a note when the stage cannot.
    func turn(relay knob: RelayKnob) async -> String?
    /// The request frames the box received, or nil when they are not visible from here.
    func receivedRequests() async -> [ReceivedRequest]?
    /// A new app process on the phone's sealed files in `store`.
    ///
    /// - Throws: `ScenarioError` or `SealError` when the site cannot be paired or found.
    func makeClient(store: FileSealedStore, policy: AskPolicy) async throws -> HeadlessClient
}
