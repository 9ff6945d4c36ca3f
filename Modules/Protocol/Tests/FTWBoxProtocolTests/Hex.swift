import FTWFixtures

/// Bytes from hex in a test, failing loudly on a typo instead of testing an empty array.
func hex(_ text: String) -> [UInt8] {
    guard let bytes = Vectors.bytes(hex: text) else { fatalError("not hex: \(text)") }
    return bytes
}
