import FTWBoxProtocol
import FTWClockSeamTesting
import FTWFixtures
import FTWSealInterface
import FTWSessionInterface
import FTWTestingTraits
import FTWTrace
import Testing

/// The ring file is rewritten every 15 s while the stream runs, keeping what the last write worked out for the
/// points that did not change. Whatever was kept, each file must read back as exactly the rings it was written from.
@Suite struct RingFileRewriteTests {
    private typealias World = TraceWorld

    /// What a file keeps of a point: a restored point is unseen and gets a fresh run id.
    private struct Kept: Equatable {
        let timeMs: Int64
        let value: Int64
        let startsRun: Bool
        let source: TraceSource
    }

    @Test(.ownThread) func everyRewriteReadsBackAsTheRingsItWasWrittenFrom() async {
        await World().run { world in
            let trace = world.makeTrace()
            await world.running(trace) {
                var noise = NoiseSource(seed: 26)
                var values = Home.values
                var checked = 0
                for second in 0..<420 {
                    if second > 0 { await world.simulation.advance(by: .seconds(1)) }
                    if second == 200 {
                        // A drop and a new connection: a new anchor and a new run in every ring.
                        await world.dropStream()
                        await world.simulation.advance(by: .seconds(9))
                    }
                    let connection = second < 200 ? 1 : 2
                    let uptime = world.simulation.clock.nowMs - World.bootMs - 50
                    // Arrival delays that shrink now and then: the anchor improves and every point of the
                    // connection moves in place, which the next write must not keep.
                    let delay = 400 - Int64(second % 97) * 4 + noise.step(within: 20)
                    if second == 0 || second == 200 {
                        let snap = Home.snap(uptimeMs: uptime, values: values)
                        await world.frame(.snap(snap), uptimeMs: uptime, delayMs: delay, connection: connection)
                    } else {
                        for field in [FieldID.grid, FieldID.load, FieldID.battery] {
                            values[field, default: 0] += noise.step(within: 9_000)
                        }
                        let delta = Delta(seq: UInt64(second), uptimeMs: uptime, fields: values)
                        await world.frame(
                            .delta(delta, truncated: false),
                            uptimeMs: uptime,
                            delayMs: delay,
                            connection: connection
                        )
                    }
                    // Written at uneven moments, so the head moves by different numbers of points.
                    guard second % 13 == 0 || second % 31 == 0 else { continue }
                    await trace.persist()
                    let restored = world.makeTrace()
                    await restored.restore()
                    for field in await trace.fields {
                        var written = await trace.points(field: field).map(Self.kept)
                        let read = await restored.points(field: field).map(Self.kept)
                        // A ring read back starts a run at its oldest point, whatever the point was.
                        if let oldest = written.first {
                            written[0] = Kept(
                                timeMs: oldest.timeMs,
                                value: oldest.value,
                                startsRun: true,
                                source: oldest.source
                            )
                        }
                        #expect(read == written, "field \(field) after \(second) s")
                    }
                    checked += 1
                }
                #expect(checked > 40)
            }
        }
    }

    private static func kept(_ point: TracePoint) -> Kept {
        Kept(timeMs: point.timeMs, value: point.value, startsRun: point.startsRun, source: point.source)
    }
}
