import FTWCrypto
import FTWFixtures
import Testing

/// Published vectors for every primitive: the box and its clients agree only if these agree.
@Suite struct CryptoVectorTests {
    private func hex(_ string: String) -> [UInt8] { Vectors.bytes(hex: string) ?? [] }

    @Test func sha256MatchesFIPS180() {
        #expect(
            Vectors.hex(SHA256.hash(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        )
    }

    @Test func hmacMatchesRFC4231CaseTwo() {
        let code = HMAC.sha256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(Vectors.hex(code) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func hkdfMatchesRFC5869CaseOne() {
        let output = HKDF.sha256(
            ikm: [UInt8](repeating: 0x0b, count: 22),
            salt: Array(0x00...0x0c),
            info: Array(0xf0...0xf9),
            outputLength: 42
        )
        #expect(
            Vectors.hex(output)
                == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"
        )
    }

    @Test func anEmptySaltIsThirtyTwoZeroBytes() {
        let ikm = Array("rendezvous".utf8)
        #expect(
            HKDF.sha256(ikm: ikm, salt: [], info: [1], outputLength: 16)
                == HKDF.sha256(ikm: ikm, salt: [UInt8](repeating: 0, count: 32), info: [1], outputLength: 16)
        )
    }

    @Test func chaChaPolyMatchesRFC8439() throws {
        let plaintext = Array(
            "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."
                .utf8
        )
        let key = Array<UInt8>(0x80...0x9f)
        let nonce = hex("070000004041424344454647")
        let aad = hex("50515253c0c1c2c3c4c5c6c7")
        let sealed = try AEADAlgorithm.chaCha20Poly1305.seal(plaintext, key: key, nonce: nonce, associatedData: aad)
        #expect(Vectors.hex(sealed.suffix(16)) == "1ae10b594f09e26a7e902ecbd0600691")
        #expect(Vectors.hex(sealed.prefix(8)) == "d31a8d34648e60db")
        #expect(
            try AEADAlgorithm.chaCha20Poly1305.open(sealed, key: key, nonce: nonce, associatedData: aad) == plaintext
        )
    }

    @Test func aesGCMMatchesTheGCMSpecificationCaseSixteen() throws {
        let key = hex("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308")
        let nonce = hex("cafebabefacedbaddecaf888")
        let plaintext = hex(
            "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"
        )
        let aad = hex("feedfacedeadbeeffeedfacedeadbeefabaddad2")
        let sealed = try AEADAlgorithm.aes256GCM.seal(plaintext, key: key, nonce: nonce, associatedData: aad)
        #expect(
            Vectors.hex(sealed)
                == "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662"
                + "76fc6ece0f4e1768cddf8853bb2d551b"
        )
    }

    @Test func x25519MatchesRFC7748() throws {
        let alice = hex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")
        let bob = hex("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb")
        let alicePublic = try X25519.publicKey(privateKey: alice)
        let bobPublic = try X25519.publicKey(privateKey: bob)
        #expect(Vectors.hex(alicePublic) == "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
        #expect(Vectors.hex(bobPublic) == "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
        let shared = try X25519.sharedSecret(privateKey: alice, publicKey: bobPublic)
        #expect(Vectors.hex(shared) == "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742")
        #expect(try X25519.sharedSecret(privateKey: bob, publicKey: alicePublic) == shared)
    }

    /// A key imported once (as a Noise handshake keeps its keys) gives RFC 7748's public key and the same secret
    /// on every exchange, with any number of peers.
    @Test func aKeptX25519KeyMatchesRFC7748OnEveryExchange() throws {
        let alice = try X25519.PrivateKey(
            rawRepresentation: hex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")
        )
        let bobPublic = hex("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
        #expect(Vectors.hex(alice.publicKey) == "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
        let other = X25519.generatePrivateKey()
        let otherPublic = try X25519.publicKey(privateKey: other)
        for _ in 0..<2 {
            let shared = try alice.sharedSecret(with: bobPublic)
            #expect(Vectors.hex(shared) == "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742")
            #expect(
                try alice.sharedSecret(with: otherPublic)
                    == X25519.sharedSecret(privateKey: other, publicKey: alice.publicKey)
            )
        }
    }
}
