/// Reads the tiles file's fields, checking every length against what is left before it touches a byte.
import FTWBus

struct TilesFileReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset == bytes.count }

    func failure(_ message: String) -> HistoryError {
        HistoryError(.unreadableFile, "tiles file at byte \(offset): \(message)")
    }

    mutating func raw(_ length: Int) throws(HistoryError) -> ArraySlice<UInt8> {
        guard length >= 0, length <= bytes.count - offset else {
            throw failure("\(length) bytes wanted, \(bytes.count - offset) left")
        }
        defer { offset += length }
        return bytes[offset..<offset + length]
    }

    mutating func byte() throws(HistoryError) -> UInt8 {
        try raw(1).first ?? 0
    }

    mutating func count() throws(HistoryError) -> Int {
        let field = try raw(2)
        return Int(field[field.startIndex]) | Int(field[field.startIndex + 1]) << 8
    }

    mutating func integer() throws(HistoryError) -> Int64 {
        let field = try raw(8)
        let word = field.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int64(bitPattern: word)
    }

    mutating func text() throws(HistoryError) -> String {
        let field = try raw(try count())
        // Through a buffer pointer: the slice itself would take the standard library's generic, much slower path.
        guard let text = field.withUnsafeBufferPointer({ String(validating: $0, as: UTF8.self) }) else {
            throw failure("text is not UTF-8")
        }
        return text
    }
}
