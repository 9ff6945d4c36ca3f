public import FTWBus
public import FTWSealInterface

/// A model whose answer comes through one ``LiveAsk``: the price window, the plan, the chargers, the prefs, the
/// status. The views and the composition drive each the same way (triggers in, the held answer out), so the
/// forwarding lives here once and every model keeps only what is its own (its name, its decoding, its state).
/// Each is a `ClientService` through its ask: it restores, runs once and persists as its ``LiveAsk`` does.
public protocol AskingModel: ClientService {
    /// The model's answer, as it is held and sealed.
    associatedtype Answer: Sendable & SealedCodable & Equatable

    /// The model's ask.
    var liveAsk: LiveAsk<Answer> { get }

}

extension AskingModel {
    /// The ask's name: the model's sealed file and its word in logs.
    public var serviceName: String { liveAsk.serviceName }

    /// Runs the ask's own loop: reads the sealed answer back and handles triggers and the session's events until
    /// ``finish()``.
    ///
    /// - Throws: `ServiceError.alreadyRunning(_:)` when the model ran before.
    public func run() async throws(ServiceError) { try await liveAsk.run() }

    /// Nothing to do: the ask seals every answer as it is recorded.
    public func persist() async { await liveAsk.persist() }

    /// Hands the model a trigger: its view appeared or went, or a pull to refresh. Returns at once.
    public func send(_ trigger: AskTrigger) { liveAsk.send(trigger) }

    /// Ends ``run()`` once the triggers already sent are handled.
    public func finish() { liveAsk.finish() }

    /// Reads the sealed answer, so it shows before anything connects.
    public func restore() async { await liveAsk.restore() }

    /// What the model's ask did: restored, answered, failed, not kept.
    public var events: EventBus<LiveAsk<Answer>.Event> { liveAsk.events }

    /// The answer held, with the name it was asked under and when; nil before any.
    public var stored: StoredAnswer<Answer>? { get async { await liveAsk.stored } }

    /// Whether the box serves this at all: false once it refused the read outright (a path it does not carry), which
    /// hides the feature instead of showing an error.
    public var isAvailable: Bool { get async { await !liveAsk.isUnavailable } }

    /// Why the last ask failed, until an answer is recorded (the session's error, or the model's own when the answer
    /// could not be taken); nil while the feature is hidden, because a box that does not carry it is not an error a
    /// person should see.
    public var failure: (any Error)? {
        get async { await liveAsk.isUnavailable ? nil : liveAsk.failure }
    }
}
