public import Bus
public import Foundation
public import SealInterface
public import SessionInterface
import Synchronization

/// The home's identity (``HomeIdentity``): sealed in `home-<site>`, read at launch so the time zone and the
/// capabilities are known before connecting, and updated whenever a stream comes up.
///
/// ## Concurrency
/// A `final class` whose state sits behind a `Mutex`, so the price model can read the time zone synchronously (its
/// namer cannot wait). ``run()`` is its service loop: it takes each stream's hello and seals what changed.
public final class HomeModel: Sendable {
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
        var restored = false
    }

    private let site: SiteID
    private let store: (any SealedStore)?
    private let sessionEvents: AsyncStream<SessionEvent>
    private let state = Mutex(State())

    /// Makes the model.
    ///
    /// - Parameters:
    ///   - site: The home whose `home-<site>` file holds the identity.
    ///   - store: Where it is sealed; nil keeps it in memory only.
    ///   - sessionEvents: The session's bus: each stream's hello.
    public init(site: SiteID, store: (any SealedStore)?, sessionEvents: EventBus<SessionEvent>) {
        self.site = site
        self.store = store
        self.sessionEvents = sessionEvents.subscribe()
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

    /// Reads the sealed identity, once, unless a hello already gave one.
    public func restore() async {
        let first = state.withLock { state in
            let first = !state.restored
            state.restored = true
            return first
        }
        guard first, let store, let identity = await store.readContents(.home(site), as: HomeIdentity.self) else {
            return
        }
        state.withLock { state in
            state.sealed = identity
            if case .unknown = state.source { state.source = .sealed(identity) }
        }
    }

    /// Reads the sealed identity back, then takes each stream's hello until the session's bus finishes or the task
    /// is cancelled.
    public func run() async {
        await restore()
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
        // A failed write keeps the identity in memory; the next hello tries again.
        guard (try? await store.writeContents(identity, to: .home(site))) != nil else { return }
        state.withLock { $0.sealed = identity }
    }
}
