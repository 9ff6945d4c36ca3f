/// Keeps the phone's one sealing key: 32 bytes, made on first use.
///
/// A seam, because where a key may live differs by platform: the Keychain on Apple platforms (not behind a passkey,
/// so a cold start can draw before Face ID), a 0600 file headless, memory in tests.
public protocol KeyProvider: Sendable {
    /// The phone's key, made and kept on first use; the same 32 bytes on every call until ``erase()``.
    ///
    /// - Throws: `SealError` with `.keyUnavailable` when the key can be neither read nor made.
    func key() async throws(SealError) -> [UInt8]

    /// Forgets the key for good, so no file sealed under it can be opened again; the next ``key()`` makes a new one.
    ///
    /// - Throws: `SealError` with `.keyUnavailable` when the key could not be removed.
    func erase() async throws(SealError)
}
