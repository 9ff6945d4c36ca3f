import FTWWebSocket
import Testing

@Suite struct WebSocketFrameParserTests {
    private let hello = Array("Hello".utf8)

    @Test func rfcSingleFrameUnmaskedTextIsHello() throws {
        let events = try FrameBytes.events([0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F], role: .client)
        #expect(events == [.message(.text("Hello"))])
    }

    @Test func rfcSingleFrameMaskedTextIsHello() throws {
        let bytes: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        #expect(try FrameBytes.events(bytes, role: .server) == [.message(.text("Hello"))])
    }

    @Test func rfcFragmentedUnmaskedTextIsHello() throws {
        let bytes: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6C, 0x80, 0x02, 0x6C, 0x6F]
        #expect(try FrameBytes.events(bytes, role: .client) == [.message(.text("Hello"))])
    }

    @Test func rfcUnmaskedPingAndMaskedPongCarryHello() throws {
        #expect(try FrameBytes.events([0x89, 0x05] + hello, role: .client) == [.ping(hello)])
        let pong: [UInt8] = [0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        #expect(try FrameBytes.events(pong, role: .server) == [.pong(hello)])
    }

    @Test func rfc256ByteBinaryUsesTheSixteenBitLength() throws {
        let payload = (0..<256).map { UInt8($0) }
        let events = try FrameBytes.events([0x82, 0x7E, 0x01, 0x00] + payload, role: .client)
        #expect(events == [.message(.binary(payload))])
    }

    @Test func rfc64KiBBinaryUsesTheSixtyFourBitLength() throws {
        let payload = (0..<65_536).map { UInt8(truncatingIfNeeded: $0) }
        let header: [UInt8] = [0x82, 0x7F, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00]
        #expect(try FrameBytes.events(header + payload, role: .client) == [.message(.binary(payload))])
    }

    @Test func framesFedOneByteAtATimeComeOutWhole() throws {
        var parser = WebSocketFrameParser(role: .server, limits: WebSocketLimits())
        let bytes: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
        var frames: [WebSocketFrame] = []
        for byte in bytes {
            parser.append(contentsOf: [byte])
            if let frame = try parser.nextFrame() { frames.append(frame) }
        }
        #expect(frames == [WebSocketFrame(opcode: .text, payload: hello)])
        #expect(parser.bufferedByteCount == 0)
    }

    @Test(arguments: [
        [0x82, 0x7E, 0x00, 0x05] as [UInt8],
        [0x82, 0x7F, 0, 0, 0, 0, 0, 0, 0x00, 0x05],
    ])
    func nonMinimalLengthEncodingsAreAccepted(header: [UInt8]) throws {
        #expect(try FrameBytes.events(header + hello, role: .client) == [.message(.binary(hello))])
    }

    @Test func aClientFrameWithoutMaskIsRefusedWith1002() {
        let error = FrameBytes.parserError(FrameBytes.unmasked(0x81, hello), role: .server)
        #expect(error?.code == .protocolViolation)
        #expect(error?.closeCode == 1002)
    }

    @Test func aServerFrameWithMaskIsRefusedWith1002() {
        let error = FrameBytes.parserError(FrameBytes.masked(0x81, hello), role: .client)
        #expect(error?.closeCode == 1002)
    }

    @Test(arguments: [0xC1, 0xA1, 0x91] as [UInt8])
    func rsvBitsWithoutAnExtensionAreRefusedWith1002(firstByte: UInt8) {
        #expect(FrameBytes.parserError(FrameBytes.unmasked(firstByte, hello), role: .client)?.closeCode == 1002)
    }

    @Test(arguments: [0x83, 0x87, 0x8B, 0x8F] as [UInt8])
    func unknownOpcodesAreRefusedWith1002(firstByte: UInt8) {
        let error = FrameBytes.parserError(FrameBytes.unmasked(firstByte, hello), role: .client)
        #expect(error?.code == .protocolViolation)
        #expect(error?.closeCode == 1002)
    }

    @Test func aControlFrameLongerThan125BytesIsRefusedWith1002() {
        let bytes: [UInt8] = [0x89, 0x7E, 0x00, 0x7E] + [UInt8](repeating: 0, count: 126)
        #expect(FrameBytes.parserError(bytes, role: .client)?.closeCode == 1002)
    }

    @Test func aFragmentedControlFrameIsRefusedWith1002() {
        #expect(FrameBytes.parserError(FrameBytes.unmasked(0x09, hello), role: .client)?.closeCode == 1002)
    }

    @Test func aSixtyFourBitLengthWithTheHighBitSetIsRefusedWith1002() {
        let bytes: [UInt8] = [0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0x05]
        #expect(FrameBytes.parserError(bytes, role: .client)?.closeCode == 1002)
    }

    @Test func anOversizeFrameIsRefusedWith1009FromItsHeaderAlone() {
        let limits = WebSocketLimits(maxMessageSize: 1_000, maxFrameSize: 100)
        let error = FrameBytes.parserError([0x82, 0x7E, 0x00, 0x65], role: .client, limits: limits)
        #expect(error?.code == .messageTooBig)
        #expect(error?.closeCode == 1009)
    }

    @Test func aHugeDeclaredLengthIsRefusedWith1009FromItsHeaderAlone() {
        let bytes: [UInt8] = [0x82, 0x7F, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(FrameBytes.parserError(bytes, role: .client)?.closeCode == 1009)
    }

    @Test func fragmentsAddingUpPastTheMessageLimitAreRefusedWith1009BeforeTheLastPayload() {
        let limits = WebSocketLimits(maxMessageSize: 100, maxFrameSize: 100)
        let first = FrameBytes.unmasked(0x02, [UInt8](repeating: 1, count: 60))
        let error = FrameBytes.parserError(first + [0x80, 0x3C], role: .client, limits: limits)
        #expect(error?.code == .messageTooBig)
        #expect(error?.closeCode == 1009)
    }

    @Test func aNewDataFrameInsideAFragmentedMessageIsRefusedWith1002() {
        let bytes = FrameBytes.unmasked(0x01, [0x61]) + FrameBytes.unmasked(0x81, [0x62])
        #expect(FrameBytes.parserError(bytes, role: .client)?.closeCode == 1002)
    }

    @Test func aContinuationWithoutAStartIsRefusedWith1002() {
        #expect(FrameBytes.parserError(FrameBytes.unmasked(0x80, [0x61]), role: .client)?.closeCode == 1002)
    }

    @Test func aFailedParserKeepsFailing() {
        var parser = WebSocketFrameParser(role: .client, limits: WebSocketLimits())
        parser.append(contentsOf: FrameBytes.unmasked(0x83, []) + FrameBytes.unmasked(0x81, hello))
        let first = #expect(throws: WebSocketError.self) { try parser.nextFrame() }
        let second = #expect(throws: WebSocketError.self) { try parser.nextFrame() }
        #expect(first == second)
    }

    @Test func arbitraryAndCorruptedBytesNeverTrap() {
        var generator = SplitMix64(seed: 6455)
        let limits = WebSocketLimits(maxMessageSize: 40, maxFrameSize: 20)
        let valid = WebSocketFrameEncoder.frames(of: .text("Grüße, relay"), maxFrameSize: 5)
            .flatMap { WebSocketFrameEncoder.encode($0, maskingKey: FrameBytes.rfcMaskingKey) }
        for _ in 0..<2_000 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            let garbage = (0..<Int.random(in: 0..<64, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            for role in [WebSocketRole.client, .server] {
                _ = FrameBytes.error(bytes, role: role, limits: limits)
                _ = FrameBytes.error(garbage, role: role, limits: limits)
            }
        }
    }
}

/// A small seeded generator, so the garbage the parser is fed is the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
