import FTWBoxProtocol
import FTWClient
import FTWHistory
import FTWTrace

/// Takes the battery's picture from a running client: its trace, the time it missed, its history.
enum PictureTaker {
    static func battery(of client: HeadlessClient, nowMs: Int64) async -> SVGChart {
        let samples = await client.trace.samples(field: FieldID.battery)
        return SVGChart(
            title: "Battery — as the client holds it",
            trace: samples,
            missedMs: missed(samples, nowMs: nowMs),
            history: await client.history.window,
            series: "battery_w",
            nowMs: nowMs
        )
    }

    /// From the newest restored point to the first live one (or to now while none has come).
    static func missed(_ samples: [ChartSample], nowMs: Int64) -> ClosedRange<Int64>? {
        guard let restored = samples.last(where: { !$0.seen }) else { return nil }
        let firstLive = samples.first(where: { $0.seen && $0.timeMs > restored.timeMs })?.timeMs ?? nowMs
        return restored.timeMs...max(restored.timeMs, firstLive)
    }
}
