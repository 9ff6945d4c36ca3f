/// Appends the tiles file's fields: little-endian integers, counts and length-prefixed UTF-8.
struct TilesFileWriter {
    private(set) var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(12 * 1024)
    }

    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    /// A count or small number as u16; the model's counts (series, gaps, tiles, strides, text lengths) are far
    /// below its limit, and a larger one is clamped rather than wrapped, so the file fails to read, never misreads.
    mutating func count(_ value: Int) {
        let clamped = UInt16(clamping: value)
        bytes.append(UInt8(clamped & 0xff))
        bytes.append(UInt8(clamped >> 8))
    }

    mutating func integer(_ value: Int64) {
        let word = UInt64(bitPattern: value)
        for shift in Swift.stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> shift)) }
    }

    mutating func text(_ value: String) {
        let utf8 = Array(value.utf8)
        count(utf8.count)
        bytes.append(contentsOf: utf8.prefix(Int(UInt16.max)))
    }

    mutating func raw(_ value: [UInt8]) {
        bytes.append(contentsOf: value)
    }
}
