import FTWCrypto
public import FTWSealInterface
import Synchronization

/// A key kept in memory only: for tests, and for a demo that must leave nothing on disk.
public final class InMemoryKeyProvider: KeyProvider {
    private let stored: Mutex<[UInt8]?>

    /// Makes a provider holding `key`, or one that makes a random key on first use when `key` is nil.
    ///
    /// A key of another size than 32 bytes is kept as given, so a test can check the store refuses it.
    public init(key: [UInt8]? = nil) {
        stored = Mutex(key)
    }

    /// The key, made on first use.
    public func key() async throws(SealError) -> [UInt8] {
        stored.withLock { stored in
            if let stored { return stored }
            let fresh = SecureRandom.bytes(count: AEADAlgorithm.keySize)
            stored = fresh
            return fresh
        }
    }

    /// Forgets the key; the next ``key()`` makes a new one.
    public func erase() async throws(SealError) {
        stored.withLock { $0 = nil }
    }
}
