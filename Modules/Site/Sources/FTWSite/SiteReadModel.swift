import FTWBoxProtocol
public import FTWCache
public import FTWClockSeam
public import FTWSealInterface
public import FTWSessionInterface

/// One of the site's small models (chargers, planner prefs, status): a `LiveAsk` client reading one path through
/// the API passthrough.
///
/// Its name never changes, so an open view asks nothing more; when someone starts looking again (a view appears,
/// the stream comes back) an answer older than the kind's time to live is read again. A box that refuses the path
/// outright (`E_UNKNOWN_OP`) hides the feature (`isAvailable` false) instead of showing an error, and is not asked
/// again. Answers are sealed in `<model>-<site>` and shown at launch, by the same age rules.
///
/// ## Concurrency
/// An actor wrapping one `LiveAsk`; `run()` is its service loop.
public actor SiteReadModel<Value: SiteReading>: AskingModel {
    /// The read this model makes, with its time to live.
    public nonisolated let kind: SiteReadKind

    /// The model's ask, under the kind's constant name.
    public nonisolated let liveAsk: LiveAsk<Value>

    /// Makes the model.
    ///
    /// - Parameters:
    ///   - site: The home whose sealed file holds the answer.
    ///   - session: Where the path is read.
    ///   - store: Where the answer is sealed; nil keeps it in memory only.
    ///   - wallClock: Now, for ages.
    ///   - timeToLive: How old an answer may be when someone starts looking again; nil takes the kind's.
    ///   - policy: The rule for asking again.
    public init(
        site: SiteID,
        session: any BoxSession,
        store: (any SealedStore)?,
        wallClock: any WallClock,
        timeToLive: Duration? = nil,
        policy: AskPolicy = .ageKeyed
    ) {
        var kind = Value.kind
        kind.timeToLive = timeToLive ?? kind.timeToLive
        self.kind = kind
        let name = AskName(kind.model)
        liveAsk = LiveAsk(
            configuration: .init(model: kind.model, timeToLive: kind.timeToLive, policy: policy, nameTurns: .never),
            site: site,
            store: store,
            sessionEvents: session.events,
            wallClock: wallClock,
            namer: { _, _ in name },
            asker: { [kind] _, byPerson in
                try await Self.read(kind, session: session, byPerson: byPerson)
            }
        )
    }

    /// The answer shown now, if any (restored or read).
    public var value: Value? { get async { await liveAsk.stored?.answer } }

    /// Reads the kind's path and takes the answer.
    ///
    /// - Throws: `SessionError` from the read, or a ``SiteError`` when the answer is not what the model reads.
    private static func read(
        _ kind: SiteReadKind,
        session: any BoxSession,
        byPerson: Bool
    ) async throws -> Value {
        let response = try await session.read(
            .api(APIRequest(method: "GET", path: kind.path)),
            order: byPerson ? .person : kind.order
        )
        return try Value(response: response)
    }
}
