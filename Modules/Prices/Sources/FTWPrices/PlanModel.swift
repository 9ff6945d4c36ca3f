public import FTWBus
public import FTWCache
public import FTWClockSeam
public import FTWSealInterface
public import FTWSessionInterface

/// The box's plan, asked under the quarter hour (cache.md §1): a plan view that stays open asks again only when the
/// quarter turns, a view that appears again asks nothing while the quarter holds, and a plan the box pushes after a
/// command replaces the shown one without a request.
///
/// The state says which of never asked, empty, stale and current it is (``PlanState``), and the ceiling is known,
/// absent or unknown (``PlanCeiling``). The plan is sealed in `plan-<site>` and shown at launch.
///
/// ## Concurrency
/// An actor wrapping one `LiveAsk`; ``run()`` runs the ask's loop beside a loop that hands pushed plans to it, so
/// a push is handled in turn with the asks.
public actor PlanModel: AskingModel {
    /// The model's sealed file, `plan-<site>`.
    public static let modelName = "plan"
    /// A quarter hour in ms: the plan's name turns with it (every UTC offset in use is a whole number of quarters, so
    /// UTC quarters are local quarters).
    public static let quarterMs: Int64 = 900_000

    /// The model's ask, named by the quarter hour.
    public nonisolated let liveAsk: LiveAsk<ShownPlan>
    private let sessionEvents: BusStream<SessionEvent>
    /// The pushed plans have one reader, so the run is claimed here before the ask's own.
    private var lifecycle = ServiceLifecycle(name: PlanModel.modelName)

    /// Makes the model.
    ///
    /// - Parameters:
    ///   - site: The home whose sealed file holds the plan.
    ///   - session: Where the plan is asked, and whose bus carries pushed plans.
    ///   - store: Where it is sealed; nil keeps it in memory only.
    ///   - wallClock: Now, for the quarter.
    ///   - policy: The rule for asking again.
    public init(
        site: SiteID,
        session: any BoxSession,
        store: (any SealedStore)?,
        wallClock: any WallClock,
        policy: AskPolicy = .ageKeyed
    ) {
        liveAsk = LiveAsk(
            configuration: .init(
                model: Self.modelName,
                timeToLive: nil,
                policy: policy,
                nameTurns: .every(.seconds(900))
            ),
            site: site,
            store: store,
            sessionEvents: session.events,
            wallClock: wallClock,
            namer: { nowMs, _ in Self.name(nowMs: nowMs) },
            asker: { _, byPerson in
                try await Self.askPlan(session: session, byPerson: byPerson)
            }
        )
        // Only a pushed plan concerns this subscription (the ask has its own): live frames never reach its task.
        sessionEvents = session.events.subscribe(where: { event in
            if case .planPushed = event { true } else { false }
        })
    }

    /// The name the plan is wanted under at `nowMs`: its quarter hour.
    public static func name(nowMs: Int64) -> AskName {
        // Floored, so an instant before 1970 still falls in the quarter that contains it.
        let quarter = nowMs >= 0 ? nowMs / quarterMs : (nowMs + 1) / quarterMs - 1
        let minutes = Int((quarter % 96 + 96) % 96 * 15)
        let (hour, minute) = (minutes / 60, minutes % 60)
        let clock = "\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute)"
        return AskName("plan, quarter \(quarter) (\(clock) UTC)")
    }

    /// Reads the sealed plan back, then handles triggers, the session's events and pushed plans until `finish()`.
    ///
    /// - Throws: `ServiceError.alreadyRunning(_:)` when the model ran before.
    public func run() async throws(ServiceError) {
        _ = try lifecycle.claimRun()
        defer { lifecycle.runEnded() }
        await withTaskGroup(of: Void.self) { group in
            // The ask runs only here, once, so it cannot refuse.
            group.addTask { [liveAsk] in try? await liveAsk.run() }
            group.addTask { [liveAsk, sessionEvents] in
                for await event in sessionEvents {
                    // A pushed plan that does not add up is dropped like an asked one: never shown.
                    guard case .planPushed(let plan) = event, let shown = try? ShownPlan(plan: plan) else { continue }
                    liveAsk.adopt(shown)
                }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// The plan held, if any (restored, asked or pushed).
    public var plan: ShownPlan? { get async { await liveAsk.stored?.answer } }

    /// What the plan view can say: never asked, empty, stale or current.
    public var state: PlanState { get async { PlanState(await liveAsk.stored?.answer) } }

    /// The ceiling the plan defends: unknown, none, or watts.
    public var ceiling: PlanCeiling { get async { PlanCeiling(await liveAsk.stored?.answer) } }
}
