import SealInterface

/// A key provider that never has a key, like a Keychain before the phone's first unlock.
struct FailingKeyProvider: KeyProvider {
    func key() async throws(SealError) -> [UInt8] {
        throw SealError(.keyUnavailable, "locked")
    }

    func erase() async throws(SealError) {
        throw SealError(.keyUnavailable, "locked")
    }
}
