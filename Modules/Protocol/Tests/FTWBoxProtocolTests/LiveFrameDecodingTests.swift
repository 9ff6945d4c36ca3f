import FTWBoxProtocol
import FTWTestingTraits
import Testing

/// `FrameCodec.decodeMessage` reads the 1 Hz delta and tick straight from their bytes: for every input it must give
/// what the general `FrameCodec.decode` gives — the same flags, id and message, or the same error.
@Suite struct LiveFrameDecodingTests {
    /// What a decode came to, comparable across the two paths.
    enum Outcome: Equatable {
        case read(flags: UInt8, id: UInt32?, message: Message)
        case refused(ProtocolError.Code)
    }

    static func direct(_ bytes: [UInt8]) -> Outcome {
        do throws(ProtocolError) {
            let (flags, id, message) = try FrameCodec.decodeMessage(bytes)
            return .read(flags: flags.rawValue, id: id, message: message)
        } catch {
            return .refused(error.code)
        }
    }

    static func general(_ bytes: [UInt8]) -> Outcome {
        do throws(ProtocolError) {
            let (frame, envelope, message) = try FrameCodec.decode(bytes)
            return .read(flags: frame.flags.rawValue, id: envelope.id, message: message)
        } catch {
            return .refused(error.code)
        }
    }

    /// A control frame holding `envelope`'s bytes, flagged `flags`.
    static func frame(_ envelope: CBOR, flags: FrameFlags = []) throws -> [UInt8] {
        try Frame(lane: .control, flags: flags, payload: CBOREncoder(keyOrder: .asGiven).encode(envelope)).encoded()
    }

    static func envelope(_ type: String, _ body: CBORMap, id: UInt64? = nil) -> CBOR {
        var map: CBORMap = ["t": .text(type), "b": .map(body)]
        if let id { map["id"] = .unsigned(id) }
        return .map(map)
    }

    /// Deltas and ticks in the plain shape and in every shape next to it that the direct reader leaves to the
    /// general path: an id, sources, a float, integer field ids, extremes, a field too many, keys in another order.
    static func shapes() throws -> [[UInt8]] {
        let fields: CBOR = .map(["2": .int(11_400), "3": .int(-6_200), "7": .int(0)])
        let plain: CBORMap = ["seq": .unsigned(7), "uptimeMs": .int(86_400_123), "fields": fields]
        var withSources = plain
        withSources["sources"] = .map([:])
        func delta(fields: CBOR) -> CBOR {
            envelope("delta", ["seq": .unsigned(1), "uptimeMs": .int(1), "fields": fields])
        }
        var shapes: [CBOR] = [
            envelope("delta", plain),
            envelope("tick", ["seq": .unsigned(8), "uptimeMs": .int(86_401_123)]),
            envelope("delta", plain, id: 3),
            envelope("tick", ["seq": .unsigned(8), "uptimeMs": .int(1)], id: 4),
            envelope("tick", plain),
            envelope("delta", ["seq": .unsigned(7), "uptimeMs": .int(1)]),
            envelope("delta", ["seq": .unsigned(7), "uptimeMs": .float(1.5), "fields": fields]),
            envelope("delta", ["seq": .int(-7), "uptimeMs": .int(1), "fields": fields]),
            envelope("delta", ["seq": .unsigned(UInt64.max), "uptimeMs": .int(Int64.min), "fields": fields]),
            envelope("delta", ["seq": .unsigned(1), "uptimeMs": .unsigned(UInt64.max), "fields": fields]),
            delta(fields: .null),
            delta(fields: .map([:])),
            delta(fields: .map(CBORMap(entries: [CBORMap.Entry(key: .unsigned(2), value: .int(5))]))),
            delta(fields: .map(["2": .int(1), "02": .int(2)])),
            delta(fields: .map(["x2": .int(1)])),
            delta(fields: .map(["2": .float(1)])),
            delta(fields: manyFields(64)),
            delta(fields: manyFields(65)),
            envelope("delta", withSources),
            envelope("snap", plain),
            .map(["b": .map(plain), "t": .text("delta")]),
            .map(["t": .text("delta"), "b": .map(plain), "x": .null]),
            .map(["t": .text("delta")]),
        ]
        shapes.append(.array([]))
        var frames = try shapes.map { try frame($0) }
        frames.append(try frame(envelope("delta", plain), flags: .truncated))
        return frames
    }

    static func manyFields(_ count: Int) -> CBOR {
        .map(CBORMap(entries: (0..<count).map { CBORMap.Entry(key: .text(String($0)), value: .int(Int64($0))) }))
    }

    @Test(arguments: try FrameVector.all())
    func everyVectorFrameReadsAsTheGeneralPathReadsIt(_ vector: FrameVector) {
        #expect(Self.direct(vector.bytes) == Self.general(vector.bytes))
    }

    @Test func everyShapeNextToThePlainOneReadsAsTheGeneralPathReadsIt() throws {
        let shapes = try Self.shapes()
        for bytes in shapes {
            #expect(Self.direct(bytes) == Self.general(bytes))
        }
        #expect(shapes.map(Self.direct).filter { if case .refused = $0 { true } else { false } }.count >= 5)
    }

    @Test func thePlainDeltaComesOutWithItsFieldsAndTheTruncatedFlag() throws {
        let fields: CBOR = .map(["2": .int(-5), "10": .int(0)])
        let plain: CBORMap = ["seq": .unsigned(7), "uptimeMs": .int(-1), "fields": fields]
        let bytes = try Self.frame(Self.envelope("delta", plain), flags: .truncated)
        #expect(
            Self.direct(bytes)
                == .read(
                    flags: FrameFlags.truncated.rawValue,
                    id: nil,
                    message: .delta(Delta(seq: 7, uptimeMs: -1, fields: [2: -5, 10: 0]))
                )
        )
    }

    /// Every byte of each shape's payload flipped, dropped, doubled or set to a CBOR head that matters, seeded: a
    /// reader that took something the general path refuses, or read it otherwise, shows here.
    @Test(.ownThread) func mutatedLiveFramesReadAlikeOnBothPaths() throws {
        var random = FuzzTests.Random(state: 17)
        let heads: [UInt8] = [0x00, 0x17, 0x18, 0x1b, 0x20, 0x3b, 0x60, 0x62, 0x7f, 0xa0, 0xa3, 0xbf, 0xf9, 0xf6, 0xff]
        var compared = 0
        var read = 0
        for bytes in try Self.shapes() {
            let length = Int(bytes[4]) << 8 | Int(bytes[5])
            for _ in 0..<400 {
                var payload = Array(bytes[6..<6 + length])
                let index = random.below(payload.count)
                switch random.below(4) {
                case 0: payload[index] ^= UInt8(truncatingIfNeeded: 1 << random.below(8))
                case 1: payload.remove(at: index)
                case 2: payload.insert(payload[index], at: index)
                default: payload[index] = heads[random.below(heads.count)]
                }
                let mutated = try Frame(lane: .control, payload: payload).encoded()
                let direct = Self.direct(mutated)
                #expect(direct == Self.general(mutated), "payload \(payload)")
                compared += 1
                if case .read = direct { read += 1 }
            }
        }
        #expect(compared > 9_000)
        #expect(read > 1_000)
    }
}
