public import FTWCache
public import FTWClockSeam
public import FTWSealInterface
public import FTWSessionInterface
public import Foundation

/// The price window for today and tomorrow in the box's time zone, asked under the local day and whether
/// tomorrow's rates are here (cache.md §1).
///
/// Before 14:00 local the day's name stands all day, whatever views come and go. From 14:00, while tomorrow's rates
/// are late (the answer does not reach the window's end), the name gains the quarter hour, so an open view asks
/// again each quarter. Once an answer brings tomorrow, the name it was asked under stays for the rest of the day:
/// that answer is no reason to ask again. The day turning is a new name. There is no time to live: only the name
/// decides. The answer is sealed in `prices-<site>` and shown at launch before anything connects.
///
/// ## Concurrency
/// An actor wrapping one `LiveAsk`; `run()` is its service loop. The time zone is read through the closure the
/// composition gives (the home's zone, known from the sealed home model before the first hello); while it gives
/// none, nothing asks by itself, but a pull to refresh still sends (a person's ask always does, cache.md §1): it asks
/// for the UTC day's window and records it under that day's name (`prices <day> GMT, …`), which no longer holds
/// once the home's zone is known, so the home's own day is asked then by the usual rules.
public actor PriceWindowModel: AskingModel {
    /// The local hour from which tomorrow's rates are expected (the day-ahead auction publishes around 13:00 CET).
    public static let publishHour = 14
    /// The model's sealed file, `prices-<site>`.
    public static let modelName = "prices"
    /// The zone a pull to refresh reads the day in while the home's is not known yet.
    public static let zoneUntilKnown = TimeZone.gmt

    /// The model's ask, named by the day and tomorrow's publish state.
    public nonisolated let liveAsk: LiveAsk<PriceWindow>

    /// Makes the model.
    ///
    /// - Parameters:
    ///   - site: The home whose sealed file holds the window.
    ///   - session: Where the window is asked.
    ///   - store: Where it is sealed; nil keeps it in memory only.
    ///   - wallClock: Now, for the local day and the hour.
    ///   - timeZone: The box's time zone now (`hello_ok.box.tz`, or the sealed home's before the first hello).
    ///   - policy: The rule for asking again.
    public init(
        site: SiteID,
        session: any BoxSession,
        store: (any SealedStore)?,
        wallClock: any WallClock,
        timeZone: @escaping @Sendable () -> TimeZone?,
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
            namer: { nowMs, stored in
                timeZone().flatMap { Self.name(nowMs: nowMs, timeZone: $0, stored: stored) }
            },
            personNamer: { nowMs, stored in
                Self.name(nowMs: nowMs, timeZone: timeZone() ?? Self.zoneUntilKnown, stored: stored)
            },
            asker: { _, byPerson in
                try await Self.askWindow(
                    session: session,
                    nowMs: wallClock.nowMs,
                    timeZone: timeZone() ?? Self.zoneUntilKnown,
                    byPerson: byPerson
                )
            }
        )
    }

    /// The window shown now, if any (restored or answered).
    public var window: PriceWindow? { get async { await liveAsk.stored?.answer } }

    /// Whether the window shown holds tomorrow's rates.
    public var tomorrowPublished: Bool { get async { await liveAsk.stored?.answer.tomorrowPublished ?? false } }
}
