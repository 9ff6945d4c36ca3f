/// Hex as people paste it: the inspector reads frames copied from logs and prints the frames it builds.
public enum Hex {
    /// Lowercase hex of `bytes`, no separators.
    public static func string(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of `text`: hex digits in either case, with any whitespace, `:` or `-` between bytes and an
    /// optional `0x` in front; nil for anything else or an odd number of digits.
    public static func bytes(_ text: String) -> [UInt8]? {
        var digits = Substring(text)
        digits = digits.drop { $0.isWhitespace }
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        var bytes: [UInt8] = []
        var high: UInt8?
        for character in digits where !(character.isWhitespace || character == ":" || character == "-") {
            guard character.isASCII, let nibble = character.hexDigitValue.map(UInt8.init) else { return nil }
            if let value = high {
                bytes.append(value << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return high == nil ? bytes : nil
    }
}
