#if canImport(Security)
import FTWCrypto
import Foundation
public import FTWSealInterface
import Security

/// The phone's key in the Keychain, as the reference app keeps it: a generic password that never leaves the device.
///
/// Readable after the first unlock since boot (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`) and not behind a
/// passkey or Face ID, so a cold start draws its cache at once; never synced to iCloud nor moved to a new phone.
/// It uses the data-protection keychain, which on macOS needs a signed build (an unsigned one gets
/// `errSecMissingEntitlement`, reported as `.keyUnavailable`). A stored key of the wrong size is replaced, for the
/// reasons `FileKeyProvider` gives.
public struct KeychainKeyProvider: KeyProvider {
    private let service: String
    private let account: String

    /// Makes a provider for the item `service`/`account` (by default the reference app's own).
    public init(service: String = "energy.ftw.app", account: String = "cache-key") {
        self.service = service
        self.account = account
    }

    /// The key, made and added to the Keychain on first use.
    ///
    /// - Throws: `SealError` with `.keyUnavailable` when the Keychain refuses (for example before the first unlock).
    public func key() async throws(SealError) -> [UInt8] {
        switch try stored() {
        case .some(let stored) where stored.count == AEADAlgorithm.keySize: return stored
        case .some: try delete()
        case .none: break
        }
        let fresh = SecureRandom.bytes(count: AEADAlgorithm.keySize)
        var item = query
        item[kSecValueData as String] = Data(fresh)
        item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        let status = SecItemAdd(item as CFDictionary, nil)
        // Another caller added the key between our read and our add: theirs is the phone's key.
        if status == errSecDuplicateItem, let theirs = try stored(), theirs.count == AEADAlgorithm.keySize {
            return theirs
        }
        guard status == errSecSuccess else { throw Self.failure("add", status) }
        return fresh
    }

    /// Deletes the key from the Keychain.
    ///
    /// - Throws: `SealError` with `.keyUnavailable` when the Keychain refuses.
    public func erase() async throws(SealError) {
        try delete()
    }

    private var query: [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
            kSecUseDataProtectionKeychain as String: true,
        ]
    }

    private func stored() throws(SealError) -> [UInt8]? {
        var search = query
        search[kSecReturnData as String] = true
        search[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(search as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else { throw Self.failure("read", status) }
        return Array(data)
    }

    private func delete() throws(SealError) {
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw Self.failure("delete", status) }
    }

    private static func failure(_ action: String, _ status: OSStatus) -> SealError {
        SealError(.keyUnavailable, "the Keychain would not \(action) the key (OSStatus \(status))")
    }
}
#endif
