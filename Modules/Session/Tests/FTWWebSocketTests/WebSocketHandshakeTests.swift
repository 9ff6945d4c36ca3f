import FTWWebSocket
import Testing

@Suite struct WebSocketHandshakeTests {
    private static let key = "dGhlIHNhbXBsZSBub25jZQ=="

    /// The RFC 6455 §1.3 sample request, with `lines` replacing or adding header lines by name.
    private static func request(
        _ startLine: String = "GET /chat HTTP/1.1",
        replacing lines: [String: String?] = [:]
    )
        -> [UInt8]
    {
        var fields: [(String, String?)] = [
            ("Host", "server.example.com"), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
            ("Sec-WebSocket-Key", key), ("Origin", "http://example.com"), ("Sec-WebSocket-Version", "13"),
        ]
        for (name, value) in lines {
            if let index = fields.firstIndex(where: { $0.0 == name }) {
                fields[index].1 = value
            } else {
                fields.append((name, value))
            }
        }
        let text = ([startLine] + fields.compactMap { name, value in value.map { "\(name): \($0)" } })
            .joined(separator: "\r\n")
        return Array((text + "\r\n\r\n").utf8)
    }

    private static func response(
        _ statusLine: String = "HTTP/1.1 101 Switching Protocols",
        extra: [String] = []
    )
        -> [UInt8]
    {
        let lines = [
            statusLine, "Upgrade: websocket", "Connection: Upgrade",
            "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
        ]
        return Array(((lines + extra).joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    @Test func theRFCSampleKeyHashesToTheRFCSampleAccept() {
        #expect(WebSocketHandshake.acceptValue(forKey: Self.key) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func theRFCSampleRequestIsAcceptedWithItsPathAndHeaders() throws {
        let head = try WebSocketHandshake.validateRequest(Self.request())
        #expect(head.path == "/chat")
        #expect(head.headers["host"] == "server.example.com")
        #expect(head.headers["origin"] == "http://example.com")
    }

    @Test func tokenListsAndCaseAreReadLikeHTTPDoes() throws {
        let bytes = Self.request(replacing: ["Connection": "keep-alive, Upgrade", "Upgrade": "WebSocket"])
        #expect(try WebSocketHandshake.validateRequest(bytes).path == "/chat")
    }

    @Test(
        arguments: [
            ("POST /chat HTTP/1.1", [:], 405),
            ("GET /chat HTTP/1.0", [:], 400),
            ("GET chat HTTP/1.1", [:], 400),
            ("GET  /chat HTTP/1.1", [:], 400),
            ("GET /chat HTTP/1.1", ["Host": nil], 400),
            ("GET /chat HTTP/1.1", ["Upgrade": nil], 400),
            ("GET /chat HTTP/1.1", ["Upgrade": "h2c"], 400),
            ("GET /chat HTTP/1.1", ["Connection": "keep-alive"], 400),
            ("GET /chat HTTP/1.1", ["Sec-WebSocket-Version": "8"], 426),
            ("GET /chat HTTP/1.1", ["Sec-WebSocket-Version": nil], 426),
            ("GET /chat HTTP/1.1", ["Sec-WebSocket-Key": nil], 400),
            ("GET /chat HTTP/1.1", ["Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ"], 400),
            ("GET /chat HTTP/1.1", ["Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25j"], 400),
            ("GET /chat HTTP/1.1", ["Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==, dGhlIHNhbXBsZSBub25jZQ=="], 400),
            ("GET /chat HTTP/1.1", ["Bad Name": "x"], 400),
            ("GET /chat HTTP/1.1", ["X-Control": "a\u{1}b"], 400),
        ] as [(String, [String: String?], Int)]
    )
    func malformedRequestsAreRefusedWithTheirStatus(startLine: String, lines: [String: String?], status: Int) {
        let error = #expect(throws: WebSocketError.self) {
            try WebSocketHandshake.validateRequest(Self.request(startLine, replacing: lines))
        }
        #expect(error?.code == .handshakeFailed)
        #expect(error?.httpStatus == status)
    }

    @Test func aRepeatedKeyHeaderIsRefused() {
        var bytes = Self.request()
        bytes.removeLast(2)
        bytes += Array("Sec-WebSocket-Key: \(Self.key)\r\n\r\n".utf8)
        #expect(throws: WebSocketError.self) { try WebSocketHandshake.validateRequest(bytes) }
    }

    @Test func aFoldedHeaderLineIsRefused() {
        var bytes = Self.request()
        bytes.removeLast(2)
        bytes += Array(" continued\r\n\r\n".utf8)
        let error = #expect(throws: WebSocketError.self) { try WebSocketHandshake.validateRequest(bytes) }
        #expect(error?.httpStatus == 400)
    }

    @Test func theRFCSampleResponseIsAccepted() throws {
        try WebSocketHandshake.validateResponse(Self.response(), key: Self.key)
    }

    @Test func aRefusalReportsItsHTTPStatus() {
        let bytes = Array("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n".utf8)
        let error = #expect(throws: WebSocketError.self) {
            try WebSocketHandshake.validateResponse(bytes, key: Self.key)
        }
        #expect(error?.code == .handshakeFailed)
        #expect(error?.httpStatus == 403)
    }

    @Test(arguments: [
        response("HTTP/1.0 101 Switching Protocols"),
        response(extra: ["Sec-WebSocket-Extensions: permessage-deflate"]),
        response(extra: ["Sec-WebSocket-Protocol: chat"]),
        response(extra: ["Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="]),
        Array(
            "HTTP/1.1 101 OK\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n".utf8
        ),
        Array(
            "HTTP/1.1 101 OK\r\nUpgrade: websocket\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n".utf8
        ),
    ])
    func wrongAnswersAreRefused(response: [UInt8]) {
        let error = #expect(throws: WebSocketError.self) {
            try WebSocketHandshake.validateResponse(response, key: Self.key)
        }
        #expect(error?.code == .handshakeFailed)
    }

    @Test func anAcceptForAnotherKeyIsRefused() {
        let error = #expect(throws: WebSocketError.self) {
            try WebSocketHandshake.validateResponse(Self.response(), key: "AAAAAAAAAAAAAAAAAAAAAA==")
        }
        #expect(error?.code == .handshakeFailed)
    }
}
