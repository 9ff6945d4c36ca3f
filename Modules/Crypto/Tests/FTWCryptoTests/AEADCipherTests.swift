import FTWBus
import FTWCrypto
import Testing

/// A cipher keyed once serves every message under its key: each message is sealed exactly as a cipher made for it
/// alone would seal it, opens on its own, and a refused one leaves nothing behind for the next.
@Suite struct AEADCipherTests {
    private let key = (0..<32).map { UInt8($0) }

    private func nonce(_ counter: Int) -> [UInt8] {
        [0, 0, 0, 0] + withUnsafeBytes(of: UInt64(counter).littleEndian, Array.init)
    }

    private func message(_ counter: Int) -> [UInt8] {
        (0..<(counter % 5) * 37).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ counter) }
    }

    @Test(arguments: [AEADAlgorithm.aes256GCM, .chaCha20Poly1305])
    func aKeptCipherSealsEachMessageAsAOneShotCipherDoes(algorithm: AEADAlgorithm) throws {
        var cipher = try AEADCipher(algorithm, key: key)
        for counter in 0..<40 {
            let associatedData = [UInt8](repeating: UInt8(counter), count: counter % 3)
            var sealed: [UInt8] = [0xee]
            try cipher.seal(
                message(counter)[...],
                nonce: nonce(counter),
                associatedData: associatedData[...],
                appendingTo: &sealed
            )
            let alone = try algorithm.seal(
                message(counter),
                key: key,
                nonce: nonce(counter),
                associatedData: associatedData
            )
            #expect(sealed == [0xee] + alone)
        }
    }

    @Test(arguments: [AEADAlgorithm.aes256GCM, .chaCha20Poly1305])
    func aKeptCipherOpensEveryMessageAndRefusesATamperedOneWithoutHarmToTheNext(algorithm: AEADAlgorithm) throws {
        let sealed = try (0..<40).map { counter in
            try algorithm.seal(message(counter), key: key, nonce: nonce(counter), associatedData: [UInt8(counter)])
        }
        var cipher = try AEADCipher(algorithm, key: key)
        for (counter, wire) in sealed.enumerated().reversed() {
            if counter % 7 == 3 {
                var tampered = wire
                tampered[tampered.count - 1] ^= 0x80
                #expect(throws: CryptoError.self) {
                    try cipher.open(tampered[...], nonce: nonce(counter), associatedData: [UInt8(counter)])
                }
                #expect(throws: CryptoError.self) {
                    try cipher.open(wire[...], nonce: nonce(counter + 1), associatedData: [UInt8(counter)])
                }
            }
            #expect(
                try cipher.open(wire[...], nonce: nonce(counter), associatedData: [UInt8(counter)]) == message(counter)
            )
        }
    }

    @Test func oneCipherSealsAndOpensInTurn() throws {
        var cipher = try AEADCipher(.chaCha20Poly1305, key: key)
        for counter in 0..<10 {
            var sealed: [UInt8] = []
            try cipher.seal(message(counter)[...], nonce: nonce(counter), appendingTo: &sealed)
            #expect(try cipher.open(sealed[...], nonce: nonce(counter)) == message(counter))
        }
    }

    @Test func aKeyOrNonceOfTheWrongSizeIsRefusedBeforeAnythingIsWritten() throws {
        #expect(throws: CryptoError(.invalidKeySize, "an AEAD key is 32 bytes, not 31")) {
            _ = try AEADCipher(.chaCha20Poly1305, key: Array(key.dropLast()))
        }
        var cipher = try AEADCipher(.chaCha20Poly1305, key: key)
        var output: [UInt8] = [1]
        #expect(throws: CryptoError(.invalidNonceSize, "an AEAD nonce is 12 bytes, not 8")) {
            try cipher.seal([2], nonce: Array(nonce(0).prefix(8)), appendingTo: &output)
        }
        #expect(output == [1])
    }
}
