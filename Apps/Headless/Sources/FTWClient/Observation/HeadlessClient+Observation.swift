public import FTWCache
public import FTWHistory
public import FTWPrices
public import FTWSite
public import FTWTrace

extension HeadlessClient {
    /// The home screen: its current value (drawn from the sealed files at launch, or live), then each change: new
    /// readings, the stream coming or going, the chargers, the plan or the prices answered.
    public func observeHomeScreen() -> ValueObservation<HomeScreen> {
        observe(
            watching: { [snapshot, sessionEvents, chargers, plan, prices] signal in
                signal.watch(snapshot.changes)
                signal.watch(sessionEvents, where: \.changesConnection)
                signal.watch(chargers.events)
                signal.watch(plan.events)
                signal.watch(prices.events)
            },
            read: { client in await HomeScreen.read(from: client) }
        )
    }

    /// Where the connection stands, as a person is told: dialling (attempt n), waiting for the box (its arrival),
    /// greeted, live (since), stale (since, and the last beat), backing off (the next try's moment, attempt and
    /// cause), offline (why, and the advice). Each change, as the session makes it; a countdown to the next try
    /// reads ``ConnectionStatus/secondsToNextTry(nowMs:)`` against ``nowMs`` on the screen's own tick.
    public func observeConnection() -> ValueObservation<ConnectionStatus> {
        observe(
            watching: { [sessionEvents] signal in signal.watch(sessionEvents, where: \.changesConnection) },
            read: { client in
                ConnectionStatus(
                    state: await client.session.connectionState,
                    liveness: await client.session.liveness
                )
            }
        )
    }

    /// Today's and tomorrow's prices, as the price sheet shows them.
    public func observePrices() -> ValueObservation<ShownAnswer<PriceWindow>> { observeAnswer(of: prices) }

    /// The plan.
    public func observePlan() -> ValueObservation<ShownAnswer<ShownPlan>> { observeAnswer(of: plan) }

    /// The chargers.
    public func observeChargers() -> ValueObservation<ShownAnswer<ChargerList>> { observeAnswer(of: chargers) }

    /// The planner's preferences (hidden, `isAvailable` false, on a box without them).
    public func observePrefs() -> ValueObservation<ShownAnswer<PlannerPrefs>> { observeAnswer(of: prefs) }

    /// The box's status.
    public func observeStatus() -> ValueObservation<ShownAnswer<SiteStatus>> { observeAnswer(of: status) }

    /// The 48-hour history window a node's chart and the grid widget draw.
    public func observeHistory() -> ValueObservation<HistoryWindow> {
        observe(
            watching: { [history] signal in signal.watch(history.events) },
            read: { client in await client.history.window }
        )
    }

    /// A node's live trace of `field` (`TraceField(named: "battery_w")`, or `.traced`'s members): its samples in
    /// their recorded runs and the time the app missed, restored from the ring file at launch and then live.
    public func observeTrace(of field: TraceField) -> ValueObservation<FieldTrace> {
        observe(
            watching: { [trace] signal in signal.watch(trace.events) },
            read: { client in await client.trace.trace(of: field) }
        )
    }

    private func observeAnswer<Model: AskingModel>(of model: Model) -> ValueObservation<ShownAnswer<Model.Answer>> {
        observe(
            watching: { signal in signal.watch(model.events) },
            read: { _ in await model.shown }
        )
    }

    /// An observation of `read`, woken by the buses `watching` names and ended by the client's close.
    private func observe<Value>(
        watching: @escaping @Sendable (ChangeSignal) -> Void,
        read: @escaping @Sendable (HeadlessClient) async -> Value
    ) -> ValueObservation<Value> {
        ValueObservation(
            watch: { [lifetime] signal in
                signal.watch(lifetime.ended)
                watching(signal)
            },
            hasEnded: { [lifetime] in lifetime.isClosed },
            read: { await read(self) }
        )
    }
}

extension SessionEvent {
    /// Whether the event can change whether the readings are live: a connection's state, the stream's beats, or the
    /// stream lost.
    var changesConnection: Bool {
        switch self {
        case .connection, .liveness, .streamLost, .terminated: true
        default: false
        }
    }
}
