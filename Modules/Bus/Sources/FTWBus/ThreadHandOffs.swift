import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Debug builds: counts the events a subscriber took on another thread than the one that published them, the check
/// behind "one client, one executor" (a live frame that reaches a model on the publisher's thread crossed none).
///
/// ## Concurrency
/// One `Mutex`: the last publishing thread and the count.
@usableFromInline
final class ThreadHandOffs: Sendable {
    private struct Ledger {
        var lastPublisher: UInt?
        var crossings = 0
    }

    private let ledger = Mutex(Ledger())

    @usableFromInline init() {}

    /// The publisher hands an event over on the calling thread.
    @usableFromInline func handed() {
        let thread = Self.currentThread
        ledger.withLock { $0.lastPublisher = thread }
    }

    /// The consumer takes an event on the calling thread: a crossing when it is not the publisher's.
    @usableFromInline func taken() {
        let thread = Self.currentThread
        ledger.withLock { ledger in
            if let publisher = ledger.lastPublisher, publisher != thread { ledger.crossings += 1 }
        }
    }

    /// How many events were taken on another thread than the one that published them.
    var crossings: Int { ledger.withLock(\.crossings) }

    private static var currentThread: UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }
}
