import FTWBus
import FTWCrypto

extension NoiseError {
    /// Translates a `Crypto` failure, so callers of this module see one error type and one vocabulary.
    init(_ error: CryptoError, while step: String) {
        let code: Code =
            switch error.code {
            case .authenticationFailed: .authenticationFailed
            case .weakSharedSecret: .weakKey
            case .invalidKeySize: .invalidKey
            default: .backend
            }
        self.init(code, "\(step): \(error.message)", cause: error)
    }
}
