/// A long-running part of the client: the composition root drives every one of them the same way, from one list.
///
/// A launch reads every service's sealed files (``restore()``) so the home draws before anything connects; the
/// process then runs every service (``run()``) in one task group until it is cancelled; and each time the app leaves
/// the front every service seals what must survive a kill (``persist()``). A service with nothing sealed of its own
/// has a ``restore()`` or ``persist()`` that does nothing.
public protocol ClientService: Sendable {
    /// The service's name in the error a second ``run()`` throws and in logs.
    var serviceName: String { get }

    /// Reads the service's sealed files back, once; a later call, or one after ``run()`` started it, does nothing.
    /// Whatever the service learnt while the read was suspended wins over what the read gives.
    func restore() async

    /// Runs the service until its task is cancelled or its inputs end; it restores first if nobody did.
    ///
    /// - Throws: ``ServiceError/alreadyRunning(_:)`` when the service was run before: a service runs once.
    func run() async throws(ServiceError)

    /// Seals what must survive a kill now (the app goes inactive or to the background).
    func persist() async
}
