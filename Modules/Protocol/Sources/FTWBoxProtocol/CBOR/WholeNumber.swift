/// Whole-number tests on doubles done on the bits.
///
/// The standard library's `rounded()` and `Int64(exactly:)` call libm, which a target that imports nothing does not
/// link on Linux; reading the exponent and the fraction bits answers the same question without it.
enum WholeNumber {
    /// Whether `value` is finite and has no fractional part.
    static func isWhole(_ value: Double) -> Bool {
        guard value.isFinite else { return false }
        if value == 0 { return true }
        let exponent = value.exponent
        guard exponent >= 0 else { return false }
        guard exponent < Double.significandBitCount else { return true }
        let fractionBits = UInt64(Double.significandBitCount - Int(exponent))
        return value.significandBitPattern & ((1 << fractionBits) - 1) == 0
    }

    /// `value` as an `Int64` when it is whole and in range (`-0.0` counts as 0).
    static func int64(exactly value: Double) -> Int64? {
        guard isWhole(value), value >= -0x1p63, value < 0x1p63 else { return nil }
        return Int64(value)
    }
}
