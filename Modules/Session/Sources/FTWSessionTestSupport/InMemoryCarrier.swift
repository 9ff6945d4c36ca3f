import FTWBus
public import FTWSessionInterface
import Synchronization

/// One end of an in-memory carrier: what a relay room is to the session, without sockets.
///
/// Ends come in pairs (``InMemoryCarrierPair``): what one end sends arrives on the other's ``incoming``. The box's
/// end also speaks for the relay (``signal(_:)`` delivers `ready` or `gone` to the app) and can close with any code
/// (``close(code:reason:)``), so a test can play every relay rule. Each end counts the bytes it sent, which is how
/// the session's cost on the wire is measured.
///
/// ## Concurrency
/// A `Sendable` class: the pair's shared state (open or closed, the two stream continuations, the counters) sits
/// behind one `Mutex`, and events are yielded outside it.
public final class InMemoryCarrier: Carrier {
    /// Which end of the pair this is.
    public enum Side: Int, Sendable, Hashable {
        /// The app's end: the one the session dials.
        case app = 0
        /// The box's (and the relay's) end.
        case box = 1
    }

    /// What one end has sent so far.
    public struct Traffic: Sendable, Hashable {
        /// Binary messages sent.
        public var messages = 0
        /// Their bytes.
        public var bytes = 0
    }

    final class Link: Sendable {
        struct State {
            var continuations: [AsyncStream<CarrierEvent>.Continuation?]
            var traffic = [Traffic(), Traffic()]
            /// The bytes of a message each end sees arriving and not whole yet.
            var arriving = [0, 0]
            var closed = false
        }

        let state: Mutex<State>

        init(app: AsyncStream<CarrierEvent>.Continuation, box: AsyncStream<CarrierEvent>.Continuation) {
            state = Mutex(State(continuations: [app, box]))
        }
    }

    /// Which end of the pair this is.
    public let side: Side
    /// What arrives from the other end, until the pair closes.
    public let incoming: AsyncStream<CarrierEvent>
    let link: Link

    init(side: Side, incoming: AsyncStream<CarrierEvent>, link: Link) {
        self.side = side
        self.incoming = incoming
        self.link = link
    }

    /// Whether the pair has been closed by either end.
    public var isClosed: Bool { link.state.withLock(\.closed) }

    /// What this end has sent.
    public var sent: Traffic { link.state.withLock { $0.traffic[side.rawValue] } }

    /// Sends one binary message to the other end.
    ///
    /// - Throws: `SessionError` with `.carrierLost` once the pair is closed; nothing is kept for later.
    public func send(_ message: [UInt8]) async throws(SessionError) {
        let peer = link.state.withLock { state -> AsyncStream<CarrierEvent>.Continuation? in
            guard !state.closed else { return nil }
            state.traffic[side.rawValue].messages += 1
            state.traffic[side.rawValue].bytes += message.count
            state.arriving[1 - side.rawValue] = 0
            return state.continuations[1 - side.rawValue]
        }
        guard let peer else { throw SessionError(.carrierLost, "the in-memory carrier is closed") }
        peer.yield(.binary(message))
    }

    /// Lets the first `count` bytes of a message reach the other end, which sees them arriving (its
    /// `arrivingBytes`) until a whole message is sent: a link that trickles.
    public func trickle(_ count: Int) {
        link.state.withLock { $0.arriving[1 - side.rawValue] = count }
    }

    /// The bytes of a message the other end has begun to send (``trickle(_:)``) and not finished.
    public var arrivingBytes: Int { link.state.withLock { $0.arriving[side.rawValue] } }

    /// Delivers a relay control word (`ready`, `gone`) to the other end, as the relay would.
    public func signal(_ word: String) {
        let peer = link.state.withLock { $0.closed ? nil : $0.continuations[1 - side.rawValue] }
        peer?.yield(.control(word))
    }

    /// Closes the pair as a peer leaving normally would (1000).
    public func close() async {
        close(code: 1000, reason: "")
    }

    /// Closes the pair: the other end receives `.closed(code, reason)`, then both streams finish.
    public func close(code: Int, reason: String) {
        let continuations = link.state.withLock { state -> [AsyncStream<CarrierEvent>.Continuation?] in
            guard !state.closed else { return [] }
            state.closed = true
            defer { state.continuations = [nil, nil] }
            return state.continuations
        }
        guard continuations.count == 2 else { return }
        continuations[1 - side.rawValue]?.yield(.closed(code: code, reason: reason))
        for continuation in continuations { continuation?.finish() }
    }
}
