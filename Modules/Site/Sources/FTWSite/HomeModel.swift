public import FTWBus
public import FTWSealInterface
public import FTWSessionInterface
public import Foundation
import Synchronization

/// The home's identity (``HomeIdentity``): sealed in `home-<site>`, read at launch so the time zone and the
/// capabilities are known before connecting, and updated whenever a stream comes up.
///
/// ## Concurrency
/// A `final class` whose state sits behind a `Mutex`, so the price model can read the time zone synchronously (its
/// namer cannot wait). ``run()`` is its service loop: it takes each stream's hello and seals what changed. The
/// session's events have one reader, so a second ``run()`` is refused.
public final class HomeModel: ClientService {
    private enum Source: Sendable {
        /// Nothing known yet.
        case unknown
        /// Read back from the sealed file at launch; not confirmed by the box this run.
        case sealed(HomeIdentity)
        /// From the hello of the stream that came up this run.
        case live(HomeIdentity)
    }

    private struct State: Sendable {
        var source = Source.unknown
        /// What the sealed file holds, so an unchanged hello writes nothing.
        var sealed: HomeIdentity?
        var lifecycle = ServiceLifecycle(name: "home")
    }

    private let site: SiteID
    private let store: (any SealedStore)?
    private let sessionEvents: BusStream<SessionEvent>
    private let state = Mutex(State())

    /// Tells observers when the identity could not be sealed.
    public let events = EventBus<KeepEvent>()

    /// Makes the model.
    ///
    /// - Parameters:
    ///   - site: The home whose `home-<site>` file holds the identity.
    ///   - store: Where it is sealed; nil keeps it in memory only.
    ///   - sessionEvents: The session's bus: each stream's hello.
    public init(site: SiteID, store: (any SealedStore)?, sessionEvents: EventBus<SessionEvent>) {
        self.site = site
        self.store = store
        // Only a stream's hello concerns the identity: the live frames never reach this model's task.
        self.sessionEvents = sessionEvents.subscribe(where: { event in
            if case .connection(.streaming) = event { true } else { false }
        })
    }

    /// The home's identity, if known (sealed or live).
    public var identity: HomeIdentity? {
        state.withLock { state in
            switch state.source {
            case .unknown: nil
            case .sealed(let identity), .live(let identity): identity
            }
        }
    }

    /// Whether the identity came from a hello this run (false while it is only the sealed copy).
    public var isLive: Bool {
        state.withLock { if case .live = $0.source { true } else { false } }
    }

    /// The box's time zone, if known and valid here: what the price window is read in.
    public var timeZone: TimeZone? { try? identity?.zone() }

    /// The model's word in logs and in the error a second ``run()`` throws.
    public var serviceName: String { "home" }

    /// Reads the sealed identity, once, unless a hello already gave one.
    public func restore() async {
        guard state.withLock({ $0.lifecycle.claimRestore() }) else { return }
        await readSealed()
        state.withLock { $0.lifecycle.restoreEnded() }
    }

    /// Nothing to do: each hello's identity is sealed as it comes.
    public func persist() async {}

    /// Reads the sealed identity; a hello that came while the read was suspended is newer, and what it sealed is
    /// what the file holds.
    private func readSealed() async {
        guard let store, let identity = await store.readContents(.home(site), as: HomeIdentity.self) else { return }
        state.withLock { state in
            guard case .unknown = state.source else { return }
            state.sealed = identity
            state.source = .sealed(identity)
        }
    }

    /// Reads the sealed identity back, then takes each stream's hello until the session's bus finishes or the task
    /// is cancelled.
    ///
    /// - Throws: `ServiceError.alreadyRunning(_:)` when the model ran before.
    public func run() async throws(ServiceError) {
        let mustRestore = try state.withLock { state throws(ServiceError) in try state.lifecycle.claimRun() }
        if mustRestore { await readSealed() }
        defer { state.withLock { $0.lifecycle.runEnded() } }
        for await event in sessionEvents {
            guard case .connection(.streaming(let hello)) = event else { continue }
            await take(HomeIdentity(hello: hello))
        }
    }

    private func take(_ identity: HomeIdentity) async {
        let changed = state.withLock { state in
            state.source = .live(identity)
            return state.sealed != identity
        }
        guard changed, let store else { return }
        // A failed write keeps the identity in memory and is told on the bus; the next hello tries again.
        do throws(SealError) {
            try await store.writeContents(identity, to: .home(site))
            state.withLock { $0.sealed = identity }
        } catch {
            events.publish(.notKept(error))
        }
    }
}
