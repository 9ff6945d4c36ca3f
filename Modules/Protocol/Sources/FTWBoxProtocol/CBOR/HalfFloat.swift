/// IEEE 754 half precision, by hand: `Float16` is missing on Intel Macs, and CBOR needs only the conversions.
enum HalfFloat {
    /// The half-precision bits of `value` when a half holds it exactly; nil otherwise (and for NaN, which the
    /// encoder writes in its one canonical form).
    static func bits(exactly value: Double) -> UInt16? {
        let sign: UInt16 = value.sign == .minus ? 0x8000 : 0
        let magnitude = value.magnitude
        if magnitude == 0 { return sign }
        if magnitude.isInfinite { return sign | 0x7c00 }
        guard magnitude.isFinite else { return nil }
        let exponent = magnitude.exponent
        switch exponent {
        case -14...15:
            let significand = magnitude.significandBitPattern
            guard significand & ((1 << 42) - 1) == 0 else { return nil }
            return sign | UInt16(exponent + 15) << 10 | UInt16(significand >> 42)
        case -24 ... -15:
            // Below the normal range a half holds whole multiples of 2^-24 (and the scaling is exact).
            let units = magnitude * 0x1p24
            guard WholeNumber.isWhole(units) else { return nil }
            return sign | UInt16(units)
        default:
            return nil
        }
    }

    /// The value of the half-precision `bits`, NaN payloads kept.
    static func value(of bits: UInt16) -> Double {
        let negative = bits & 0x8000 != 0
        let exponent = Int(bits >> 10 & 0x1f)
        let fraction = UInt64(bits & 0x3ff)
        let magnitude: Double
        switch exponent {
        case 0: magnitude = Double(fraction) * 0x1p-24
        case 31:
            guard fraction != 0 else { return negative ? -.infinity : .infinity }
            return Double(bitPattern: (negative ? 1 << 63 : 0) | 0x7ff0_0000_0000_0000 | fraction << 42)
        default: magnitude = Double(sign: .plus, exponent: exponent - 25, significand: Double(1024 + fraction))
        }
        return negative ? -magnitude : magnitude
    }
}
