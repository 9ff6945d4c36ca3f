import FTWWebSocket
import Testing

@Suite struct WebSocketMessageAssemblerTests {
    @Test func fragmentsAreReassembledAroundAnInterleavedPing() throws {
        var assembler = WebSocketMessageAssembler()
        let frames = [
            WebSocketFrame(opcode: .text, payload: Array("Hel".utf8), isFinal: false),
            WebSocketFrame(opcode: .ping, payload: [7]),
            WebSocketFrame(opcode: .continuation, payload: Array("lo, ".utf8), isFinal: false),
            WebSocketFrame(opcode: .continuation, payload: Array("relay".utf8)),
        ]
        let events = try frames.map { frame throws(WebSocketError) in try assembler.consume(frame) }
        #expect(events == [nil, .ping([7]), nil, .message(.text("Hello, relay"))])
    }

    @Test func fragmentedBinaryIsReassembledOverTheWire() throws {
        let bytes = [0x02, 0x02, 1, 2, 0x89, 0x00, 0x00, 0x01, 3, 0x80, 0x01, 4] as [UInt8]
        #expect(try FrameBytes.events(bytes, role: .client) == [.ping([]), .message(.binary([1, 2, 3, 4]))])
    }

    @Test func aCharacterSplitAcrossFragmentsIsValid() throws {
        let euro = Array("€".utf8)
        let bytes = FrameBytes.unmasked(0x01, Array(euro[..<1])) + FrameBytes.unmasked(0x80, Array(euro[1...]))
        #expect(try FrameBytes.events(bytes, role: .client) == [.message(.text("€"))])
    }

    @Test(arguments: [
        [0xC3, 0x28] as [UInt8],  // a lead byte without its continuation
        [0xED, 0xA0, 0x80],  // a UTF-16 surrogate
        [0xC0, 0xAF],  // an overlong encoding of "/"
        [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
        [0xE2, 0x82],  // truncated at the end of the message
    ])
    func invalidUTF8TextIsRefusedWith1007(payload: [UInt8]) {
        let error = FrameBytes.error(FrameBytes.unmasked(0x81, payload), role: .client)
        #expect(error?.code == .invalidUTF8)
        #expect(error?.closeCode == 1007)
    }

    @Test func anEmptyCloseHasNoCode() throws {
        #expect(try FrameBytes.events([0x88, 0x00], role: .client) == [.close(code: nil, reason: "")])
    }

    @Test(
        arguments: [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1014, 3000, 4400, 4409, 4999]
            as [UInt16]
    )
    func closeCodesAllowedOnTheWireArrive(code: UInt16) throws {
        let bytes = FrameBytes.unmasked(0x88, FrameBytes.closePayload(code, Array("493828".utf8)))
        #expect(try FrameBytes.events(bytes, role: .client) == [.close(code: code, reason: "493828")])
    }

    @Test(arguments: [0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000, 65_535] as [UInt16])
    func closeCodesNeverOnTheWireAreRefusedWith1002(code: UInt16) {
        let error = FrameBytes.error(FrameBytes.unmasked(0x88, FrameBytes.closePayload(code)), role: .client)
        #expect(error?.code == .protocolViolation)
        #expect(error?.closeCode == 1002)
    }

    @Test func aOneByteCloseIsRefusedWith1002() {
        #expect(FrameBytes.error([0x88, 0x01, 0x03], role: .client)?.closeCode == 1002)
    }

    @Test func aCloseReasonThatIsNotUTF8IsRefusedWith1007() {
        let bytes = FrameBytes.unmasked(0x88, FrameBytes.closePayload(1000, [0xFF]))
        #expect(FrameBytes.error(bytes, role: .client)?.closeCode == 1007)
    }

    @Test func framesOutOfOrderAreRefusedEvenWithoutTheParser() {
        var assembler = WebSocketMessageAssembler()
        let orphan = #expect(throws: WebSocketError.self) {
            try assembler.consume(WebSocketFrame(opcode: .continuation, payload: []))
        }
        #expect(orphan?.closeCode == 1002)
        _ = try? assembler.consume(WebSocketFrame(opcode: .binary, payload: [], isFinal: false))
        let interrupted = #expect(throws: WebSocketError.self) {
            try assembler.consume(WebSocketFrame(opcode: .text, payload: []))
        }
        #expect(interrupted?.closeCode == 1002)
    }
}
