import FTWBus
import FTWCrypto
import Testing

/// Every way an input can be wrong gets its own typed refusal, never a trap and never a wrong answer.
@Suite struct CryptoRefusalTests {
    private let key = [UInt8](repeating: 7, count: 32)
    private let nonce = [UInt8](repeating: 1, count: 12)

    @Test(arguments: [AEADAlgorithm.aes256GCM, .chaCha20Poly1305])
    func aFlippedBitFailsToAuthenticate(algorithm: AEADAlgorithm) throws {
        var sealed = try algorithm.seal(Array("reading".utf8), key: key, nonce: nonce, associatedData: [9])
        sealed[0] ^= 1
        #expect(throws: CryptoError.self) { try algorithm.open(sealed, key: key, nonce: nonce, associatedData: [9]) }
    }

    @Test(arguments: [AEADAlgorithm.aes256GCM, .chaCha20Poly1305])
    func otherAssociatedDataFailsToAuthenticate(algorithm: AEADAlgorithm) throws {
        let sealed = try algorithm.seal(Array("reading".utf8), key: key, nonce: nonce, associatedData: Array("a".utf8))
        do {
            _ = try algorithm.open(sealed, key: key, nonce: nonce, associatedData: Array("b".utf8))
            Issue.record("opened under the wrong associated data")
        } catch {
            #expect(error.code == .authenticationFailed)
        }
    }

    @Test(arguments: [AEADAlgorithm.aes256GCM, .chaCha20Poly1305])
    func inputShorterThanATagIsRefused(algorithm: AEADAlgorithm) {
        #expect(throws: CryptoError(.authenticationFailed, "15 bytes cannot hold a 16-byte tag")) {
            try algorithm.open([UInt8](repeating: 0, count: 15), key: key, nonce: nonce)
        }
    }

    @Test func anEmptyPlaintextSealsToATagAlone() throws {
        let sealed = try AEADAlgorithm.chaCha20Poly1305.seal([], key: key, nonce: nonce)
        #expect(sealed.count == 16)
        #expect(try AEADAlgorithm.chaCha20Poly1305.open(sealed, key: key, nonce: nonce).isEmpty)
    }

    @Test func wrongKeyAndNonceSizesAreRefused() {
        do {
            _ = try AEADAlgorithm.aes256GCM.seal([1], key: [1, 2], nonce: nonce)
            Issue.record("sealed under a two-byte key")
        } catch {
            #expect(error.code == .invalidKeySize)
        }
        do {
            _ = try AEADAlgorithm.aes256GCM.seal([1], key: key, nonce: [1])
            Issue.record("sealed under a one-byte nonce")
        } catch {
            #expect(error.code == .invalidNonceSize)
        }
    }

    @Test func anX25519KeyOfTheWrongSizeIsRefusedNamingWhichKey() throws {
        let short = try #require(throws: CryptoError.self) { try X25519.PrivateKey(rawRepresentation: [1, 2]) }
        #expect(short.code == .invalidKeySize)
        #expect(short.message == "an X25519 private key is 32 bytes, not 2")
        let kept = try X25519.PrivateKey(rawRepresentation: key)
        let peer = try #require(throws: CryptoError.self) {
            try kept.sharedSecret(with: [UInt8](repeating: 9, count: 33))
        }
        #expect(peer.code == .invalidKeySize)
        #expect(peer.message == "an X25519 public key is 32 bytes, not 33")
    }

    @Test func aLowOrderPublicKeyIsRefused() {
        do {
            _ = try X25519.sharedSecret(privateKey: key, publicKey: [UInt8](repeating: 0, count: 32))
            Issue.record("agreed with the all-zero point")
        } catch {
            #expect(error.code == .weakSharedSecret)
        }
    }

    @Test func randomBytesDiffer() {
        #expect(SecureRandom.bytes(count: 32) != SecureRandom.bytes(count: 32))
        #expect(SecureRandom.bytes(count: 0).isEmpty)
    }
}
