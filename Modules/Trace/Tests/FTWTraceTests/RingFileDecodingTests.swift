import FTWBoxProtocol
import FTWBus
import FTWSeal
import FTWSealInterface
import FTWTrace
import Testing

/// A ring file that opens but does not decode leaves the trace empty and says why, with a typed error.
@Suite struct RingFileDecodingTests {
    private typealias World = TraceWorld

    /// Field 2 with two points one second apart, then the given tail (valid when `tail` is empty).
    private static func field(points: [UInt8]) -> [UInt8] {
        [1, 1, 4, 2, 1, 2, 0] + points
    }

    /// The first point at 1 000 ms with value 5, the second one step of 1 000 ms later with value 6.
    private static let twoPoints: [UInt8] = [0xD0, 0x0F, 10, 0xD0, 0x0F, 2]

    static let cases: [(name: String, bytes: [UInt8], code: TraceError.Code)] = [
        ("empty", [], .truncated),
        ("version 0, which no build wrote", [0, 0], .unknownVersion),
        ("cut short", Array(field(points: twoPoints).dropLast()), .truncated),
        ("an overlong varint", [1] + Array(repeating: 0xFF, count: 10) + [1], .malformed),
        ("an unknown flag bit", [1, 1, 4, 2, 1, 2, 0x80] + twoPoints, .malformed),
        ("segments that do not add up", [1, 1, 4, 2, 1, 1, 0] + twoPoints, .malformed),
        ("a time that does not move forward", field(points: [0xD0, 0x0F, 10, 0, 2]), .malformed),
        ("a negative time", field(points: [1, 10, 0xD0, 0x0F, 2]), .malformed),
        ("bytes left over", field(points: twoPoints) + [0], .malformed),
        ("a field twice", [1, 2, 4, 0, 4, 0], .malformed),
        ("more fields than the trace keeps", [1, 0x7F], .tooLarge),
        ("more points than a ring holds", [1, 1, 4, 0xFF, 0x7F], .tooLarge),
    ]

    @Test func aWellFormedFileRestores() async {
        let world = World()
        await world.run { world in
            let store = world.store()
            try? await store.write(Self.field(points: Self.twoPoints), to: .ring(World.site))
            let trace = world.makeTrace(store: store)
            await trace.restore()
            let points = await trace.points(field: FieldID.grid)
            #expect(points.map(\.timeMs) == [1_000, 2_000])
            #expect(points.map(\.value) == [5, 6])
        }
    }

    @Test(arguments: cases)
    func contentsThatDoNotDecodeLeaveTheTraceEmpty(name: String, bytes: [UInt8], code: TraceError.Code) async {
        let world = World()
        await world.run { world in
            let store = world.store()
            try? await store.write(bytes, to: .ring(World.site))
            let trace = world.makeTrace(store: store)
            let events = EventLog(trace.events)
            await trace.restore()
            #expect(await trace.fields.isEmpty, "\(name)")
            let failures = await events.drain().compactMap { event -> TraceError.Code? in
                if case .restoreFailed(let error) = event { error.code } else { nil }
            }
            #expect(failures == [code], "\(name)")
        }
    }

    /// A newer build's rings (issue 32): the trace starts empty and the file stays as it was, for that build.
    @Test func aNewerBuildsRingFileIsKeptAsItIs() async {
        let world = World()
        await world.run { world in
            let store = world.store()
            try? await store.write([2, 0], to: .ring(World.site))
            let trace = world.makeTrace(store: store)
            let events = EventLog(trace.events)
            await trace.restore()
            #expect(await trace.fields.isEmpty)
            #expect(await events.drain().allSatisfy { if case .restoreFailed = $0 { false } else { true } })
            #expect(await store.read(.ring(World.site)) == [2, 0])
        }
    }

    @Test func aFileCutShortKeepsTheReadersFailureAsTheCause() async {
        let world = World()
        await world.run { world in
            let store = world.store()
            try? await store.write(Array(Self.field(points: Self.twoPoints).dropLast()), to: .ring(World.site))
            let trace = world.makeTrace(store: store)
            let events = EventLog(trace.events)
            await trace.restore()
            let causes = await events.drain().compactMap { event -> SealedContentError? in
                if case .restoreFailed(let error) = event { error.cause as? SealedContentError } else { nil }
            }
            #expect(causes.count == 1)
        }
    }
}
