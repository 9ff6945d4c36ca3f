import FTWBoxProtocol
public import FTWBus
public import FTWSealInterface
public import FTWSessionInterface

/// Seals the pairing record once the box has accepted this phone: from then on the device is known and the
/// single-use code must never be sent again, even if the process is killed a moment later.
///
/// ## Concurrency
/// An actor and a ``/FTWBus/ClientService``: ``run()`` waits for the first stream's hello on the session's bus,
/// subscribed at init so the hello cannot be missed, and seals the finished record. A record that is not pending has
/// nothing to wait for, subscribes to nothing, and its run returns at once.
public actor PairingKeeper: ClientService {
    /// Tells observers when the finished record could not be sealed (the pending one, with its code, stays).
    public nonisolated let events = EventBus<KeepEvent>()

    private let paired: PairedSite
    private let store: any SealedStore
    private let sessionEvents: BusStream<SessionEvent>?
    private var lifecycle = ServiceLifecycle(name: "pairing")

    /// Makes the keeper of `paired`, sealed in `store`, finished by the first hello on `sessionEvents`.
    public init(paired: PairedSite, store: any SealedStore, sessionEvents: EventBus<SessionEvent>) {
        self.paired = paired
        self.store = store
        self.sessionEvents = paired.pairingCode.isEmpty ? nil : sessionEvents.subscribe()
    }

    /// The keeper's word in logs and in the error a second ``run()`` throws.
    public nonisolated var serviceName: String { "pairing" }

    /// Nothing to do: the record was read before the client was made.
    public func restore() async {}

    /// Nothing to do: the record is sealed when the box accepts the phone.
    public func persist() async {}

    /// Waits for the first stream's hello and seals the record with the role and scopes it granted and no code.
    ///
    /// - Throws: ``/FTWBus/ServiceError/alreadyRunning(_:)`` when the keeper ran before.
    public func run() async throws(ServiceError) {
        _ = try lifecycle.claimRun()
        defer { lifecycle.runEnded() }
        guard let sessionEvents else { return }
        for await event in sessionEvents {
            guard case .connection(.streaming(let hello)) = event else { continue }
            var record = paired
            record.pairingCode = []
            record.role = hello.role.rawValue
            record.scopes = hello.scopes.map(\.rawValue)
            do {
                try await record.write(to: store)
            } catch {
                events.publish(.notKept(error))
            }
            return
        }
    }
}
