import FTWBus
public import FTWSealInterface

/// A key provider that never has a key, like a Keychain before the phone's first unlock: every sealed write fails
/// with `.keyUnavailable`, so a model's tests can check that it tells its observers.
public struct FailingKeyProvider: KeyProvider {
    /// Makes the provider.
    public init() {}

    /// Fails: there is no key.
    public func key() async throws(SealError) -> [UInt8] {
        throw SealError(.keyUnavailable, "locked")
    }

    /// Fails: there is no key to remove.
    public func erase() async throws(SealError) {
        throw SealError(.keyUnavailable, "locked")
    }
}
