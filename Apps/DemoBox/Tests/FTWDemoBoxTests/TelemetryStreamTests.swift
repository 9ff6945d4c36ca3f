import FTWBoxProtocol
import Testing

@testable import FTWDemoBox

/// The TRUNC rules, on the stream alone: the demo's two short driver names never overflow a 256-byte frame on
/// their own, so the cut is driven here with the site states that would.
@Suite struct TelemetryStreamTests {
    private static func snap(fields: [Int: Int64], state: SourceState, blocked: [String], rev: UInt64 = 1) -> Snap {
        let sources = ["sungrow", "easee"].reduce(into: [String: SourceInfo]()) { table, name in
            table[name] = SourceInfo(name: name, lastOkMs: 3_650_000, staleAfterMs: 60_000, state: state)
        }
        return Snap(
            uptimeMs: 3_700_000,
            controlRev: rev,
            dict: [:],
            fields: fields,
            sources: sources,
            dispatchBlockedBy: blocked
        )
    }

    private static let quiet: [Int: Int64] = [1: 1, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0, 10: 0]
    private static let busy: [Int: Int64] = [1: 1, 2: -4321, 3: -6123, 4: 4999, 5: 654, 6: 1234, 10: 11000]

    @Test func theSourceTableIsCutFirstAndFollowsOnALaterPulse() throws {
        var stream = TelemetryStream(
            sub: Sub(bucket: 256, hz: 1),
            after: Self.snap(fields: Self.quiet, state: .live, blocked: [])
        )
        let cut = stream.pulse(Self.snap(fields: Self.busy, state: .lagging, blocked: ["sungrow"]))
        let first = try #require(cut.first)
        guard case .delta(let delta) = first.message else {
            Issue.record("expected a delta")
            return
        }
        #expect(first.flags.contains(.truncated))
        #expect(delta.sources == nil && delta.fields == Self.busy.filter { $0.key != 1 })
        let next = stream.pulse(Self.snap(fields: Self.busy, state: .lagging, blocked: ["sungrow"]))
        guard case .delta(let rest)? = next.first?.message else {
            Issue.record("expected a delta")
            return
        }
        #expect(next.first?.flags.contains(.truncated) == false)
        #expect(rest.fields.isEmpty && rest.sources?["sungrow"]?.state == .lagging)
        #expect(rest.dispatchBlockedBy == ["sungrow"])
    }

    @Test func fieldsAreCutFromTheHighestIdAndSentLater() throws {
        let many = Dictionary(uniqueKeysWithValues: (1...60).map { ($0, Int64(-1_000_000 - $0)) })
        let none = Dictionary(uniqueKeysWithValues: (1...60).map { ($0, Int64(0)) })
        var stream = TelemetryStream(
            sub: Sub(bucket: 256, hz: 1),
            after: Self.snap(fields: none, state: .live, blocked: [])
        )
        let now = Self.snap(fields: many, state: .live, blocked: [])
        guard case .delta(let first)? = stream.pulse(now).first?.message else {
            Issue.record("expected a delta")
            return
        }
        let sent = first.fields.keys.sorted()
        #expect(sent == Array(1...sent.count) && sent.count < 60)
        guard case .delta(let second)? = stream.pulse(now).first?.message else {
            Issue.record("expected a delta")
            return
        }
        #expect(second.fields.keys.min() == sent.count + 1)
    }

    @Test func aMovedControlRevSendsASnapBeforeThePulsesFrame() {
        var stream = TelemetryStream(sub: Sub(), after: Self.snap(fields: Self.quiet, state: .live, blocked: []))
        let frames = stream.pulse(Self.snap(fields: Self.quiet, state: .live, blocked: [], rev: 2))
        #expect(frames.map(\.message.type) == ["snap", "tick"])
    }
}
