import FTWWebSocket
import Testing

@Suite struct WebSocketFrameEncoderTests {
    private let hello = Array("Hello".utf8)

    @Test func unmaskedHelloMatchesTheRFC() {
        let bytes = WebSocketFrameEncoder.encode(WebSocketFrame(opcode: .text, payload: hello), maskingKey: nil)
        #expect(bytes == [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
    }

    @Test func maskedHelloMatchesTheRFC() {
        let frame = WebSocketFrame(opcode: .text, payload: hello)
        let bytes = WebSocketFrameEncoder.encode(frame, maskingKey: FrameBytes.rfcMaskingKey)
        #expect(bytes == [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
    }

    @Test(
        arguments: [
            (125, [0x82, 0x7D]),
            (126, [0x82, 0x7E, 0x00, 0x7E]),
            (256, [0x82, 0x7E, 0x01, 0x00]),
            (65_535, [0x82, 0x7E, 0xFF, 0xFF]),
            (65_536, [0x82, 0x7F, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00]),
        ] as [(Int, [UInt8])]
    )
    func lengthsUseTheShortestEncoding(length: Int, header: [UInt8]) {
        let frame = WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 9, count: length))
        let bytes = WebSocketFrameEncoder.encode(frame, maskingKey: nil)
        #expect(Array(bytes.prefix(header.count)) == header)
        #expect(bytes.count == header.count + length)
    }

    @Test func longMessagesAreSplitIntoContinuationFrames() {
        let frames = WebSocketFrameEncoder.frames(of: .text("abcdefg"), maxFrameSize: 3)
        #expect(
            frames == [
                WebSocketFrame(opcode: .text, payload: Array("abc".utf8), isFinal: false),
                WebSocketFrame(opcode: .continuation, payload: Array("def".utf8), isFinal: false),
                WebSocketFrame(opcode: .continuation, payload: Array("g".utf8)),
            ]
        )
    }

    @Test func anEmptyMessageIsOneEmptyFrame() {
        #expect(
            WebSocketFrameEncoder.frames(of: .binary([]), maxFrameSize: 3) == [
                WebSocketFrame(opcode: .binary, payload: [])
            ]
        )
    }

    @Test(arguments: [WebSocketMessage.text("Grüße aus dem Keller ⚡️"), .binary(Array(0...255))])
    func encodedFragmentsParseBackToTheMessage(message: WebSocketMessage) throws {
        let bytes = WebSocketFrameEncoder.frames(of: message, maxFrameSize: 4)
            .flatMap { WebSocketFrameEncoder.encode($0, maskingKey: 0xDEAD_BEEF) }
        #expect(try FrameBytes.events(bytes, role: .server) == [.message(message)])
    }
}
