import FTWClockSeam
import FTWClockSeamTesting
import FTWWebSocket
import Foundation
import Testing

/// The server against a bare TCP client that sends exactly the bytes each test needs, good or bad.
@Suite(.timeLimit(.minutes(1)))
struct ServerHandshakeTests {
    /// A valid Upgrade request, the RFC's key.
    static let request = Array(
        """
        GET /echo HTTP/1.1\r
        Host: 127.0.0.1\r
        Upgrade: websocket\r
        Connection: Upgrade\r
        Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r
        Sec-WebSocket-Version: 13\r
        \r

        """.utf8
    )

    /// The head (as text) and the bytes after it, once the whole head has arrived.
    private static func split(_ bytes: [UInt8]) -> (head: String, rest: [UInt8])? {
        let terminator: [UInt8] = [13, 10, 13, 10]
        guard bytes.count >= 4,
            let end = (0...(bytes.count - 4)).first(where: { bytes[$0..<($0 + 4)].elementsEqual(terminator) })
        else { return nil }
        return (String(decoding: bytes[..<end], as: UTF8.self), Array(bytes[(end + 4)...]))
    }

    /// Whether `bytes` hold a whole head followed by at least one whole short frame.
    private static func hasHeadAndFrame(_ bytes: [UInt8]) -> Bool {
        guard let rest = split(bytes)?.rest, rest.count >= 2 else { return false }
        return rest.count >= 2 + Int(rest[1] & 0x7F)
    }

    @Test func aPlainGetIsAnsweredWith400OnTheWire() async throws {
        try await withServer(handler: echoHandler) { server in
            let raw = try RawTCPClient(port: server.port)
            raw.write(Array("GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            let answer = String(decoding: await raw.readToEnd(), as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 400 "))
        }
    }

    @Test func anOldVersionIsAnsweredWith426AndTheSupportedVersion() async throws {
        try await withServer(handler: echoHandler) { server in
            let raw = try RawTCPClient(port: server.port)
            let request = String(decoding: Self.request, as: UTF8.self)
                .replacingOccurrences(of: "Version: 13", with: "Version: 8")
            raw.write(Array(request.utf8))
            let answer = String(decoding: await raw.readToEnd(), as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 426 "))
            #expect(answer.contains("Sec-WebSocket-Version: 13\r\n"))
        }
    }

    @Test func aHeadLongerThanTheLimitIsRefused() async throws {
        try await withServer(limits: WebSocketLimits(maxHandshakeHeaderSize: 1_024), handler: echoHandler) { server in
            let raw = try RawTCPClient(port: server.port)
            raw.write(
                Array(Self.request.dropLast(2))
                    + Array("X-Padding: \(String(repeating: "a", count: 2_000))\r\n\r\n".utf8)
            )
            let answer = String(decoding: await raw.readToEnd(), as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 400 "))
        }
    }

    @Test func aSilentClientIsDroppedWhenTheHandshakeTimesOut() async throws {
        let clock = ManualClock(originMs: 0)
        let limits = WebSocketLimits(handshakeTimeout: .seconds(10))
        try await withServer(limits: limits, clock: clock, handler: echoHandler) { server in
            let raw = try RawTCPClient(port: server.port)
            await clock.waitForSleepers(count: 1)
            clock.advance(by: .seconds(10))
            #expect(await raw.readToEnd().isEmpty)
        }
    }

    @Test func framesSentRightAfterTheRequestAreNotLost() async throws {
        try await withServer(handler: echoHandler) { server in
            let raw = try RawTCPClient(port: server.port)
            let early = WebSocketFrame(opcode: .text, payload: Array("early".utf8))
            raw.write(Self.request + WebSocketFrameEncoder.encode(early, maskingKey: 0x0102_0304))
            let answer = try #require(Self.split(await raw.read(until: Self.hasHeadAndFrame)))
            #expect(answer.head.hasPrefix("HTTP/1.1 101 "))
            #expect(answer.head.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="))
            #expect(answer.rest == [0x81, 0x05] + Array("early".utf8))
        }
    }

    @Test func anUnmaskedClientFrameIsClosedWith1002() async throws {
        try await withServer(handler: echoHandler) { server in
            let raw = try RawTCPClient(port: server.port)
            raw.write(Self.request + [0x81, 0x02, 0x68, 0x69])
            let answer = try #require(Self.split(await raw.read(until: Self.hasHeadAndFrame)))
            #expect(Array(answer.rest.prefix(4)) == [0x88, answer.rest[1], 0x03, 0xEA])
        }
    }
}
