import FTWBoxProtocol
import FTWClockSeam
import FTWClockSeamTesting
import FTWSeal
import FTWSealInterface
import FTWSessionInterface
import FTWTrace

extension TraceWorld {
    /// Streams a ten-field home at 1 Hz for five minutes, every power reading moving each second as a busy home's
    /// do, writes the ring file and returns its size on disk, sealed.
    func runTenFieldHome() async -> Int {
        await run { world in
            let trace = world.makeTrace()
            await world.running(trace) {
                var noise = NoiseSource(seed: 42)
                var values = Dictionary(uniqueKeysWithValues: (1...10).map { ($0, Int64(1_000 * $0)) })
                for second in 0..<301 {
                    if second > 0 { await world.simulation.advance(by: .seconds(1)) }
                    let uptime = world.simulation.clock.nowMs - Self.bootMs - 50
                    guard second > 0 else {
                        let snap = Home.snap(uptimeMs: uptime, values: values, dict: Home.tenFields)
                        await world.frame(.snap(snap), uptimeMs: uptime)
                        continue
                    }
                    for field in 1...10 { values[field, default: 0] += noise.step(within: 400) }
                    let jitter = noise.step(within: 8)
                    let delta = Delta(seq: UInt64(second), uptimeMs: uptime + jitter, fields: values)
                    await world.frame(.delta(delta, truncated: false), uptimeMs: uptime + jitter)
                }
                await trace.persist()
            }
            return await world.store().files().first { $0.name == .ring(Self.site) }?.bytes ?? 0
        }
    }
}

/// Deterministic noise (SplitMix64), so the size the test checks is the same on every run.
struct NoiseSource {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A value in `-limit...limit`.
    mutating func step(within limit: Int64) -> Int64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 31
        return Int64(mixed % UInt64(2 * limit + 1)) - limit
    }
}
