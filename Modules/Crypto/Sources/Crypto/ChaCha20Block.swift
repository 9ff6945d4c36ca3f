#if !canImport(CryptoKit)
/// One ChaCha20 block (RFC 8439 §2.3), for the one block a ChaCha20-Poly1305 receiver needs before it may trust a
/// message: block 0, whose first 32 bytes are the message's Poly1305 key (§2.6).
///
/// libcrypto's stream cipher makes the same bytes, but asking it for one block costs a re-initialisation and a
/// call through its provider layers, which is more than the block itself; the bulk of a message is still
/// decrypted by libcrypto (see ``ChaChaPolyOpener``).
struct ChaCha20Block {
    /// The key as eight little-endian words.
    var key: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)

    /// The block under `key` (32 bytes) at block counter 0; wiped by the owner when the key goes.
    init(key: UnsafeRawBufferPointer) {
        func word(_ index: Int) -> UInt32 {
            key.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self).littleEndian
        }
        self.key = (word(0), word(1), word(2), word(3), word(4), word(5), word(6), word(7))
    }

    /// The Poly1305 key of the message under the 12-byte `nonce`: block 0's first 32 bytes as `r` and `s`.
    func polyKey(nonce: UnsafeRawBufferPointer) -> (r: (UInt64, UInt64), s: (UInt64, UInt64)) {
        let n0 = nonce.loadUnaligned(fromByteOffset: 0, as: UInt32.self).littleEndian
        let n1 = nonce.loadUnaligned(fromByteOffset: 4, as: UInt32.self).littleEndian
        let n2 = nonce.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian
        var x0: UInt32 = 0x6170_7865
        var x1: UInt32 = 0x3320_646e
        var x2: UInt32 = 0x7962_2d32
        var x3: UInt32 = 0x6b20_6574
        var (x4, x5, x6, x7, x8, x9, x10, x11) = key
        var (x12, x13, x14, x15): (UInt32, UInt32, UInt32, UInt32) = (0, n0, n1, n2)
        for _ in 0..<10 {
            Self.quarter(&x0, &x4, &x8, &x12)
            Self.quarter(&x1, &x5, &x9, &x13)
            Self.quarter(&x2, &x6, &x10, &x14)
            Self.quarter(&x3, &x7, &x11, &x15)
            Self.quarter(&x0, &x5, &x10, &x15)
            Self.quarter(&x1, &x6, &x11, &x12)
            Self.quarter(&x2, &x7, &x8, &x13)
            Self.quarter(&x3, &x4, &x9, &x14)
        }
        // Only the first eight words are needed, so only they get the input added back.
        x0 = x0 &+ 0x6170_7865
        x1 = x1 &+ 0x3320_646e
        x2 = x2 &+ 0x7962_2d32
        x3 = x3 &+ 0x6b20_6574
        x4 = x4 &+ key.0
        x5 = x5 &+ key.1
        x6 = x6 &+ key.2
        x7 = x7 &+ key.3
        func pair(_ low: UInt32, _ high: UInt32) -> UInt64 { UInt64(low) | UInt64(high) << 32 }
        return ((pair(x0, x1), pair(x2, x3)), (pair(x4, x5), pair(x6, x7)))
    }

    @inline(__always)
    private static func quarter(_ a: inout UInt32, _ b: inout UInt32, _ c: inout UInt32, _ d: inout UInt32) {
        a = a &+ b
        d = (d ^ a).rotated(16)
        c = c &+ d
        b = (b ^ c).rotated(12)
        a = a &+ b
        d = (d ^ a).rotated(8)
        c = c &+ d
        b = (b ^ c).rotated(7)
    }
}

extension UInt32 {
    @inline(__always)
    fileprivate func rotated(_ count: UInt32) -> UInt32 { self << count | self >> (32 - count) }
}
#endif
