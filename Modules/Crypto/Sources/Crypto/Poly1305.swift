#if !canImport(CryptoKit)
/// Poly1305 (RFC 8439 §2.5) over the message layout of ChaCha20-Poly1305 (§2.8), in 64-bit limbs.
///
/// It exists so a receiver can check a message's tag before it decrypts a byte: in a relay room most messages
/// that reach a phone are another phone's, and refusing one then costs the authenticator alone instead of the
/// whole AEAD open (see ``ChaChaPolyOpener``). Every block it absorbs carries the 2^128 bit, because the AEAD pads
/// the associated data and the ciphertext to whole blocks with zeros.
///
/// The arithmetic runs in the same time whatever the data: the partial reduction and the final choice between
/// `h` and `h − p` are masks, never branches.
struct Poly1305 {
    private let r0: UInt64
    private let r1: UInt64
    /// `r1 · 5/4`, which folds the bits above 2^130 back into the low limbs (2^130 ≡ 5 mod p).
    private let s1: UInt64
    private let pad0: UInt64
    private let pad1: UInt64
    /// The accumulator `h` in limbs of 64, 64 and a few bits.
    private var h0: UInt64 = 0
    private var h1: UInt64 = 0
    private var h2: UInt64 = 0

    /// An authenticator under the 32-byte one-time key `r ‖ s` (r clamped as §2.5 says).
    init(r: (UInt64, UInt64), s: (UInt64, UInt64)) {
        r0 = r.0 & 0x0fff_fffc_0fff_ffff
        r1 = r.1 & 0x0fff_fffc_0fff_fffc
        s1 = r1 &+ (r1 >> 2)
        (pad0, pad1) = s
    }

    /// Absorbs `bytes` as whole 16-byte blocks, the last one padded with zeros (the AEAD's `pad16`).
    mutating func absorbPadded(_ bytes: UnsafeRawBufferPointer) {
        // The accumulator lives in registers for the loop, not in `self`.
        var h = (h0, h1, h2)
        var offset = 0
        while bytes.count - offset >= 16 {
            let m0 = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
            let m1 = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self).littleEndian
            h = Self.block(h, m0, m1, r0: r0, r1: r1, s1: s1)
            offset += 16
        }
        if offset < bytes.count {
            var last: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &last) { last in
                last.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            }
            h = Self.block(h, last.0.littleEndian, last.1.littleEndian, r0: r0, r1: r1, s1: s1)
        }
        (h0, h1, h2) = h
    }

    /// Absorbs the AEAD's closing block: the lengths of the associated data and of the ciphertext.
    mutating func absorbLengths(associatedData: Int, ciphertext: Int) {
        (h0, h1, h2) = Self.block((h0, h1, h2), UInt64(associatedData), UInt64(ciphertext), r0: r0, r1: r1, s1: s1)
    }

    /// The tag, `(h mod p) + s` modulo 2^128, as two little-endian words.
    func tag() -> (UInt64, UInt64) {
        let (g0, c0) = h0.addingReportingOverflow(5)
        let (g1, c1) = h1.addingReportingOverflow(c0 ? 1 : 0)
        let g2 = h2 &+ (c1 ? 1 : 0)
        // h − p carries into bit 130 exactly when h ≥ p; then the low limbs of h + 5 are h mod p.
        let mask = 0 &- (g2 >> 2)
        let low = (h0 & ~mask) | (g0 & mask)
        let high = (h1 & ~mask) | (g1 & mask)
        let (t0, carry) = low.addingReportingOverflow(pad0)
        return (t0, high &+ pad1 &+ (carry ? 1 : 0))
    }

    /// `(h + block + 2^128) · r`, partly reduced modulo 2^130 − 5.
    @inline(__always)
    private static func block(
        _ h: (UInt64, UInt64, UInt64),
        _ m0: UInt64,
        _ m1: UInt64,
        r0: UInt64,
        r1: UInt64,
        s1: UInt64
    ) -> (UInt64, UInt64, UInt64) {
        let sum0 = UInt128(h.0) &+ UInt128(m0)
        let sum1 = UInt128(h.1) &+ UInt128(m1) &+ (sum0 >> 64)
        let a0 = UInt64(truncatingIfNeeded: sum0)
        let a1 = UInt64(truncatingIfNeeded: sum1)
        let a2 = h.2 &+ UInt64(truncatingIfNeeded: sum1 >> 64) &+ 1

        let d0 = UInt128(a0) &* UInt128(r0) &+ UInt128(a1) &* UInt128(s1)
        let d1 = UInt128(a0) &* UInt128(r1) &+ UInt128(a1) &* UInt128(r0) &+ UInt128(a2 &* s1) &+ (d0 >> 64)
        let top = a2 &* r0 &+ UInt64(truncatingIfNeeded: d1 >> 64)
        // Fold what lies above 2^130 back in, times 5: (top >> 2) · 5 = (top >> 2) + (top & ~3).
        let fold = UInt128((top >> 2) &+ (top & ~3))
        let limbs = UInt128(UInt64(truncatingIfNeeded: d1)) << 64 | UInt128(UInt64(truncatingIfNeeded: d0))
        let (folded, carry) = limbs.addingReportingOverflow(fold)
        return (
            UInt64(truncatingIfNeeded: folded), UInt64(truncatingIfNeeded: folded >> 64), (top & 3) &+ (carry ? 1 : 0)
        )
    }
}
#endif
