/// The start line and header fields of an HTTP/1.1 message, parsed strictly enough for an Upgrade handshake.
///
/// Lines end in CRLF, field names are tokens, obsolete line folding is refused, and values are trimmed of
/// optional whitespace. Field names are kept lowercased because HTTP compares them case-insensitively.
struct HTTPHead: Sendable {
    private static let terminator: [UInt8] = [13, 10, 13, 10]
    private static let tokenSymbols = Set("!#$%&'*+-.^_`|~".utf8)

    /// The request or status line.
    let startLine: String
    /// The header fields in order, names lowercased.
    let fields: [(name: String, value: String)]

    /// The offset just past the blank line ending the head, searching `buffer` from `searchFrom`.
    static func endOffset(in buffer: [UInt8], searchFrom: Int = 0) -> Int? {
        let first = max(0, searchFrom - 3)
        guard buffer.count >= first + 4 else { return nil }
        for offset in first...(buffer.count - 4) where buffer[offset..<(offset + 4)].elementsEqual(terminator) {
            return offset + 4
        }
        return nil
    }

    /// Parses a head, ending with its blank line, into a start line and fields.
    ///
    /// - Throws: ``WebSocketError/Code/handshakeFailed`` with HTTP status 400 for any malformed line.
    init(_ bytes: ArraySlice<UInt8>) throws(WebSocketError) {
        var lines = Self.splitLines(bytes.dropLast(Self.terminator.count))
        guard !lines.isEmpty else { throw Self.malformed("empty HTTP head") }
        startLine = String(decoding: lines.removeFirst(), as: UTF8.self)
        var fields: [(name: String, value: String)] = []
        for line in lines { fields.append(try Self.parseField(line)) }
        self.fields = fields
    }

    /// Every value of the field `name` (lowercase), in order.
    func values(_ name: String) -> [String] { fields.filter { $0.name == name }.map(\.value) }

    /// The comma-separated tokens of all `name` fields, lowercased, for `Connection` and `Upgrade`.
    func tokens(_ name: String) -> [String] {
        values(name).flatMap { $0.split(separator: ",") }.map { Self.trimmed($0).lowercased() }
    }

    private static func splitLines(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == 13, index + 1 < bytes.endIndex, bytes[index + 1] == 10 {
                lines.append(bytes[lineStart..<index])
                index += 2
                lineStart = index
            } else {
                index += 1
            }
        }
        lines.append(bytes[lineStart..<bytes.endIndex])
        return lines
    }

    private static func parseField(_ line: ArraySlice<UInt8>) throws(WebSocketError) -> (name: String, value: String) {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { throw malformed("header line without a colon") }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(isTokenCharacter) else { throw malformed("bad header field name") }
        let value = line[(colon + 1)...]
        guard value.allSatisfy({ $0 == 9 || ($0 >= 32 && $0 != 127) }) else {
            throw malformed("control character in a header value")
        }
        let text = trimmed(Substring(String(decoding: value, as: UTF8.self)))
        return (String(decoding: name, as: UTF8.self).lowercased(), text)
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default: tokenSymbols.contains(byte)
        }
    }

    /// `text` without HTTP's optional whitespace (spaces and tabs) at either end.
    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }

    private static func malformed(_ message: String) -> WebSocketError {
        WebSocketError(.handshakeFailed, message, httpStatus: 400)
    }
}
