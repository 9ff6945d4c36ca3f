import FTWBus
import FTWFixtures
import FTWNoise
import Testing

/// The transport's rules: authenticate first, then the 64-wide replay window; sequence numbers from 0; never the
/// last nonce.
@Suite struct TransportTests {
    private let frame = [UInt8](repeating: 0xa5, count: 512)

    @Test(arguments: [0, 7, 8, 300, 535])
    func aChangedByteAnywhereFailsAuthentication(index: Int) throws {
        var (app, box) = try Pairing().sessions()
        var wire = try app.seal(frame)
        wire[index] ^= 0x01
        #expect(errorCode { _ = try box.open(wire) } == .authenticationFailed)
        #expect(box.receiver.window.newest == nil)
    }

    @Test func aReplayedWireIsRefusedAsAReplay() throws {
        var (app, box) = try Pairing().sessions()
        let wire = try app.seal(frame)
        #expect(try box.open(wire) == frame)
        #expect(errorCode { _ = try box.open(wire) } == .replay)
    }

    @Test func outOfOrderWiresWithinTheWindowOpenOnceEach() throws {
        var (app, box) = try Pairing().sessions()
        let wires = try (0..<64).map { index in try app.seal([UInt8(index)]) }
        for (index, wire) in wires.enumerated().reversed() {
            #expect(try box.open(wire) == [UInt8(index)])
        }
        for wire in wires {
            #expect(errorCode { _ = try box.open(wire) } == .replay)
        }
    }

    @Test func aWire64BehindTheNewestIsTooOld() throws {
        var (app, box) = try Pairing().sessions()
        let wires = try (0...64).map { index in try app.seal([UInt8(index)]) }
        #expect(try box.open(wires[64]) == [64])
        #expect(errorCode { _ = try box.open(wires[0]) } == .replay)
        #expect(try box.open(wires[1]) == [1])
    }

    @Test func aWireFromAnotherSessionIsNotMineAndLeavesTheWindowAlone() throws {
        var (app, box) = try Pairing().sessions()
        var (otherApp, _) = try Pairing().sessions()
        _ = try box.open(app.seal(frame))
        _ = try otherApp.seal(frame)
        let stranger = try otherApp.seal(frame)
        let windowBefore = box.receiver.window
        #expect(errorCode { _ = try box.open(stranger) } == .authenticationFailed)
        #expect(box.receiver.window == windowBefore)
        let genuine = try app.seal(frame)
        #expect(genuine.prefix(8) == stranger.prefix(8))
        #expect(try box.open(genuine) == frame)
    }

    @Test func theCheapRefusalGivesOpensVerdictOnEveryKindOfWire() throws {
        var (app, box) = try Pairing().sessions()
        var (stranger, _) = try Pairing().sessions()
        var wires: [[UInt8]] = []
        for index in 0..<80 {
            let genuine = try app.seal([UInt8(truncatingIfNeeded: index)])
            wires.append(genuine)
            wires.append(try stranger.seal(frame))
            if index % 5 == 0 { wires.append(genuine) }
            if index % 7 == 0 { wires.append(Array(genuine.prefix(23))) }
            if index % 3 == 0 { wires.insert(genuine, at: max(0, wires.count - 70)) }
            var tampered = genuine
            tampered[tampered.count - 1] ^= 0x80
            if index % 4 == 0 { wires.append(tampered) }
        }
        var cheap = box
        for wire in wires {
            #expect(cheap.openIfMine(wire) == (try? box.open(wire)))
            #expect(cheap.receiver.window == box.receiver.window)
        }
    }

    @Test func theCheapRefusalOfAStrangersWireLeavesTheWindowForTheGenuineOne() throws {
        var (app, box) = try Pairing().sessions()
        var (otherApp, _) = try Pairing().sessions()
        #expect(box.openIfMine(try app.seal(frame)) == frame)
        _ = try otherApp.seal(frame)
        let stranger = try otherApp.seal(frame)
        let windowBefore = box.receiver.window
        #expect(box.openIfMine(stranger) == nil)
        #expect(box.receiver.window == windowBefore)
        let genuine = try app.seal(frame)
        #expect(genuine.prefix(8) == stranger.prefix(8))
        #expect(box.openIfMine(genuine) == frame)
        #expect(box.openIfMine(genuine) == nil, "a replay")
    }

    @Test func aSideCannotOpenWhatItSealedItself() throws {
        var (app, _) = try Pairing().sessions()
        let wire = try app.seal(frame)
        #expect(errorCode { _ = try app.open(wire) } == .authenticationFailed)
    }

    @Test func eachDirectionStartsAtSequenceZero() throws {
        var (app, box) = try Pairing().sessions()
        #expect(try app.seal(frame).prefix(8) == [0, 0, 0, 0, 0, 0, 0, 0])
        #expect(try box.seal(frame).prefix(8) == [0, 0, 0, 0, 0, 0, 0, 0])
        #expect(try app.seal(frame).prefix(8) == [0, 0, 0, 0, 0, 0, 0, 1])
    }

    @Test(arguments: [0, 1, 23])
    func aWireShorterThan24BytesIsMalformed(count: Int) throws {
        var (_, box) = try Pairing().sessions()
        #expect(errorCode { _ = try box.open([UInt8](repeating: 0, count: count)) } == .malformed)
    }

    @Test func anEmptyFrameTravelsIn24Bytes() throws {
        var (app, box) = try Pairing().sessions()
        let wire = try app.seal([])
        #expect(wire.count == NoiseTransport.overhead)
        #expect(try box.open(wire) == [])
    }

    @Test func theLastSequenceNumberIsNeverUsed() throws {
        let key = [UInt8](repeating: 7, count: 32)
        var sender = NoiseTransport(key: key, nextSequence: .max - 1)
        var receiver = NoiseTransport(key: key)
        let last = try sender.seal(frame)
        #expect(last.prefix(8) == [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe])
        #expect(try receiver.open(last) == frame)
        #expect(errorCode { _ = try sender.seal(frame) } == .nonceExhausted)
        #expect(sender.nextSequence == .max)
        #expect(errorCode { _ = try sender.seal([]) } == .nonceExhausted)
    }

    @Test func aLongStreamOpensMessageByMessageAndATamperedOneHarmsNoneAfterIt() throws {
        var (app, box) = try Pairing().sessions()
        let frames = (0..<300).map { index in [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: index % 9) }
        let wires = try frames.map { try app.seal($0) }
        for pair in stride(from: 0, to: wires.count, by: 2) {
            for index in [pair + 1, pair] {
                if index % 50 == 7 {
                    var tampered = wires[index]
                    tampered[tampered.count - 1] ^= 0x01
                    #expect(errorCode { _ = try box.open(tampered) } == .authenticationFailed)
                }
                #expect(try box.open(wires[index]) == frames[index])
            }
        }
    }

    @Test func aCopiedTransportOpensOnItsOwnWhileTheOriginalDoesToo() async throws {
        var (app, box) = try Pairing().sessions()
        let frames = (0..<2_000).map { index in [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: 64) }
        let wires = try frames.map { try app.seal($0) }
        _ = try box.open(wires[0])
        let copy = box
        async let first = OwnThread.run { [box] in try Self.openAll(wires.dropFirst(), with: box) }
        async let second = OwnThread.run { [copy] in try Self.openAll(wires.dropFirst(), with: copy) }
        #expect(try await first == Array(frames.dropFirst()))
        #expect(try await second == Array(frames.dropFirst()))
    }

    @Test func aKeyOfTheWrongSizeIsRefusedByTheStepThatNeedsIt() {
        var transport = NoiseTransport(key: [UInt8](repeating: 7, count: 31))
        #expect(throws: NoiseError(.invalidKey, "sealing: an AEAD key is 32 bytes, not 31")) {
            try transport.seal(frame)
        }
        #expect(throws: NoiseError(.invalidKey, "opening: an AEAD key is 32 bytes, not 31")) {
            try transport.open([UInt8](repeating: 0, count: 40))
        }
        #expect(transport.nextSequence == 0)
    }

    private static func openAll(_ wires: ArraySlice<[UInt8]>, with session: NoiseSession) throws -> [[UInt8]] {
        var session = session
        return try wires.map { try session.open($0) }
    }
}
