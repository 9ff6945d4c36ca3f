/// A fuzzer's input read front to back as the choices of one run: which mode, how many, which bytes.
///
/// Every read succeeds: past the end it yields zeros and empty slices, so a target never has to handle "too short"
/// and libFuzzer's shortest inputs still reach every mode.
public struct FuzzInput {
    private let bytes: [UInt8]
    private var offset = 0

    /// The input libFuzzer hands to `LLVMFuzzerTestOneInput`.
    public init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        self.bytes = Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// An input made of `bytes`, for replaying a finding by hand.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether every byte has been taken.
    public var isAtEnd: Bool { offset >= bytes.count }

    /// The next byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A number in `0..<bound` from the next byte (`bound` at most 256), so each choice costs one byte.
    public mutating func choice(below bound: Int) -> Int {
        Int(byte()) % max(1, bound)
    }

    /// The next eight bytes as a big-endian number.
    public mutating func uint64() -> UInt64 {
        (0..<8).reduce(UInt64(0)) { value, _ in value << 8 | UInt64(byte()) }
    }

    /// The next `count` bytes, fewer at the end.
    public mutating func take(_ count: Int) -> [UInt8] {
        let end = min(bytes.count, offset + max(0, count))
        defer { offset = max(offset, end) }
        return offset < end ? Array(bytes[offset..<end]) : []
    }

    /// Everything not taken yet.
    public mutating func rest() -> [UInt8] {
        take(bytes.count - offset)
    }
}
