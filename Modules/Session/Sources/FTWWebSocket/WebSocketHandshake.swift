/// The opening handshake of RFC 6455 §4 as pure functions over HTTP heads, for both ends.
///
/// Keeping it sans-I/O lets every strictness rule be tested with crafted bytes. The client asks for no extension
/// and no subprotocol, so a server that answers with either is refused (permessage-deflate stays off).
public enum WebSocketHandshake {
    /// The GUID RFC 6455 appends to the key before hashing.
    public static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The `Sec-WebSocket-Accept` value that answers `key`: base64 of SHA-1 of the key and the GUID.
    public static func acceptValue(forKey key: String) -> String {
        Base64.encode(SHA1.hash(Array((key + acceptGUID).utf8)))
    }

    /// A fresh `Sec-WebSocket-Key`: 16 random bytes, base64.
    static func makeKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64.encode((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The client's Upgrade request for `path` on `host:port`.
    ///
    /// - Throws: ``WebSocketError/Code/handshakeFailed`` when the host or path could not be sent safely.
    static func makeRequest(host: String, port: Int, path: String, key: String) throws(WebSocketError) -> [UInt8] {
        let isSafe: (Character) -> Bool = { !$0.isWhitespace && !$0.isNewline }
        guard path.hasPrefix("/"), path.allSatisfy(isSafe), !host.isEmpty, host.allSatisfy(isSafe) else {
            throw WebSocketError(.handshakeFailed, "host or path cannot be sent in a request line")
        }
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        return head(
            "GET \(path) HTTP/1.1",
            [
                ("Host", authority), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
                ("Sec-WebSocket-Key", key), ("Sec-WebSocket-Version", "13"),
            ]
        )
    }

    /// Checks a server's answer to a request made with `key`.
    ///
    /// - Parameters:
    ///   - head: The response head, through its blank line.
    ///   - key: The `Sec-WebSocket-Key` the request was made with, which the answer's accept value must match.
    /// - Throws: ``WebSocketError/Code/handshakeFailed``, with `httpStatus` when the server answered other than 101.
    public static func validateResponse(_ head: [UInt8], key: String) throws(WebSocketError) {
        let response = try HTTPHead(head[...])
        let parts = response.startLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0] == "HTTP/1.1", let status = Int(parts[1]) else {
            throw failure("malformed status line")
        }
        guard status == 101 else { throw WebSocketError(.handshakeFailed, "HTTP \(status)", httpStatus: status) }
        guard response.tokens("upgrade").contains("websocket") else { throw failure("response lacks Upgrade") }
        guard response.tokens("connection").contains("upgrade") else { throw failure("response lacks Connection") }
        guard response.values("sec-websocket-accept") == [acceptValue(forKey: key)] else {
            throw failure("wrong Sec-WebSocket-Accept")
        }
        guard response.values("sec-websocket-extensions").isEmpty else { throw failure("unrequested extension") }
        guard response.values("sec-websocket-protocol").isEmpty else { throw failure("unrequested subprotocol") }
    }

    /// Checks a client's Upgrade request strictly (RFC 6455 §4.2.1).
    ///
    /// - Parameter head: The request head, through its blank line.
    /// - Returns: The path and headers a handler routes on.
    /// - Throws: ``WebSocketError/Code/handshakeFailed`` whose `httpStatus` is the answer to send: 405 for a method
    ///   other than GET, 426 for a version other than 13, 400 for everything else.
    public static func validateRequest(_ head: [UInt8]) throws(WebSocketError) -> WebSocketRequestHead {
        let request = try HTTPHead(head[...])
        let parts = request.startLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2] == "HTTP/1.1", parts[1].hasPrefix("/") else {
            throw refusal(400, "malformed request line")
        }
        guard parts[0] == "GET" else { throw refusal(405, "method \(parts[0]) is not GET") }
        guard request.values("host").count == 1 else { throw refusal(400, "request needs exactly one Host") }
        guard request.tokens("upgrade").contains("websocket") else { throw refusal(400, "request lacks Upgrade") }
        guard request.tokens("connection").contains("upgrade") else { throw refusal(400, "request lacks Connection") }
        guard request.values("sec-websocket-version") == ["13"] else { throw refusal(426, "version is not 13") }
        let keys = request.values("sec-websocket-key")
        guard keys.count == 1, let key = keys.first, Base64.decode(key)?.count == 16 else {
            throw refusal(400, "Sec-WebSocket-Key is not 16 bytes of base64")
        }
        let headers = Dictionary(request.fields.map { ($0.name, $0.value) }) { "\($0), \($1)" }
        return WebSocketRequestHead(path: String(parts[1]), headers: headers, key: key)
    }

    /// The 101 answer that accepts a request made with `key`.
    static func makeAcceptResponse(key: String) -> [UInt8] {
        head(
            "HTTP/1.1 101 Switching Protocols",
            [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", acceptValue(forKey: key))]
        )
    }

    /// An answer refusing the Upgrade with `status`; statuses outside 200–599 become 500.
    static func makeRefusal(status: Int, reason: String) -> [UInt8] {
        let code = (200...599).contains(status) ? status : 500
        let phrase = String(reason.filter { !$0.isNewline && $0.isASCII })
        var fields = [("Connection", "close"), ("Content-Length", "0")]
        if code == 405 { fields.append(("Allow", "GET")) }
        if code == 426 { fields.append(("Sec-WebSocket-Version", "13")) }
        return head("HTTP/1.1 \(code) \(phrase)", fields)
    }

    private static func head(_ startLine: String, _ fields: [(String, String)]) -> [UInt8] {
        let lines = [startLine] + fields.map { "\($0.0): \($0.1)" }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    private static func failure(_ message: String) -> WebSocketError {
        WebSocketError(.handshakeFailed, message)
    }

    private static func refusal(_ status: Int, _ message: String) -> WebSocketError {
        WebSocketError(.handshakeFailed, message, httpStatus: status)
    }
}
