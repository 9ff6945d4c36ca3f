/// The samples of a history tile (§4.3): one block of int32 little-endian values per series, in series order.
///
/// Column order lets the app hand a whole series to a chart without walking rows.
public enum TileData {
    /// The value of a point with no data; zero is a real reading, so holes need their own value.
    public static let missing = Int32.min

    /// The columns of `data`, one per series.
    ///
    /// - Parameters:
    ///   - data: The chunk's `data`.
    ///   - series: How many series it holds.
    ///   - points: How many points each series holds.
    /// - Throws: ``ProtocolError`` `.badField` when `data` is not exactly `series × points × 4` bytes (a tile with
    ///   series has at least one point).
    public static func decode(_ data: [UInt8], series: Int, points: Int) throws(ProtocolError) -> [[Int32]] {
        let (values, overflow) = series.multipliedReportingOverflow(by: points)
        let (expected, overflow4) = values.multipliedReportingOverflow(by: 4)
        guard series >= 0, points > 0 || series == 0, !overflow, !overflow4, data.count == expected else {
            throw ProtocolError(
                .badField,
                "tile data holds \(data.count) bytes, not \(series) series × \(points) points × 4",
                field: "data"
            )
        }
        // Whole words through the buffer, each column filled in place: a cold start decodes every sealed tile (48
        // hours of four series are 2 304 values), and byte by byte through the array's checked subscript cost 33
        // instructions a value. The length is checked above, so every load is inside `data`.
        return data.withUnsafeBytes { raw in
            (0..<series).map { column in
                let base = column * points * 4
                return [Int32](unsafeUninitializedCapacity: points) { values, filled in
                    for point in 0..<points {
                        let word = raw.loadUnaligned(fromByteOffset: base + point * 4, as: UInt32.self)
                        values[point] = Int32(bitPattern: UInt32(littleEndian: word))
                    }
                    filled = points
                }
            }
        }
    }

    /// The bytes of `columns`, each written whole, in order.
    public static func encode(_ columns: [[Int32]]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(columns.reduce(0) { $0 + $1.count * 4 })
        for value in columns.joined() {
            let word = UInt32(bitPattern: value)
            bytes.append(contentsOf: [
                UInt8(word & 0xff), UInt8(word >> 8 & 0xff), UInt8(word >> 16 & 0xff), UInt8(word >> 24),
            ])
        }
        return bytes
    }
}
