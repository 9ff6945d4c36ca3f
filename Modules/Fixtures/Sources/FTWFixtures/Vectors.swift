public import Foundation

/// The box's own test vectors, copied into `Vectors/` at the repository root, for tests that must agree with the
/// box byte for byte.
///
/// Tests read them from the source tree (found from this file's path) rather than from a bundle, so the copy in the
/// repository is the one copy and a clean clone has everything it needs.
public enum Vectors {
    /// The repository's root folder.
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Fixtures
        .deletingLastPathComponent()  // Sources
        .deletingLastPathComponent()  // Fixtures module
        .deletingLastPathComponent()  // Modules
        .deletingLastPathComponent()

    /// The URL of the vector file `name` (such as `webapp-vectors.json`).
    public static func url(_ name: String) -> URL {
        repositoryRoot.appendingPathComponent("Vectors").appendingPathComponent(name)
    }

    /// The contents of the vector file `name`.
    ///
    /// - Throws: The file system's error when the file cannot be read.
    public static func data(_ name: String) throws -> Data {
        try Data(contentsOf: url(name))
    }

    /// The vector file `name` parsed as JSON.
    ///
    /// - Throws: The file system's or the JSON parser's error.
    public static func json(_ name: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: data(name))
        guard let dictionary = object as? [String: Any] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return dictionary
    }

    /// Bytes from a hex string such as `"a16174"`; nil when it is not an even run of hex digits.
    public static func bytes(hex: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.utf8.count / 2)
        var high: UInt8?
        for character in hex.utf8 {
            guard let nibble = nibble(character) else { return nil }
            if let value = high {
                bytes.append(value << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        return high == nil ? bytes : nil
    }

    /// Lowercase hex of `bytes`.
    public static func hex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
