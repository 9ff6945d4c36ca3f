import FTWBoxProtocol
public import FTWHistory
public import FTWTrace
import Foundation

/// Draws one node as the client holds it, so a person can look instead of read: the last minutes of the live trace
/// above, the 48-hour history below.
///
/// Restored points are ink without glow, points seen live glow, the newest live point is the head, the time the app
/// missed is a hatched band, and history steps still on their way are a dotted line at the last known value — never
/// a drop to zero and never a hole.
public struct SVGChart: Sendable {
    /// The node's title, such as "Battery".
    public var title: String
    /// The trace's chart samples for the node's field.
    public var trace: [ChartSample]
    /// The stretch the app missed (from the newest restored point to the first live one, or to now).
    public var missedMs: ClosedRange<Int64>?
    /// The history window and the series to draw from it.
    public var history: HistoryWindow?
    /// The history series for the node, such as `battery_w`.
    public var series: String
    /// Now, on the wall clock (Unix ms): the right edge of both panels.
    public var nowMs: Int64

    private static let width = 960.0
    private static let panelHeight = 220.0
    private static let margin = 48.0
    private static let traceSpanMs: Int64 = 300_000

    /// Makes a chart.
    public init(
        title: String,
        trace: [ChartSample],
        missedMs: ClosedRange<Int64>?,
        history: HistoryWindow?,
        series: String,
        nowMs: Int64
    ) {
        self.title = title
        self.trace = trace
        self.missedMs = missedMs
        self.history = history
        self.series = series
        self.nowMs = nowMs
    }

    /// The whole picture as an SVG document.
    public func render() -> String {
        let height = Self.margin * 3 + Self.panelHeight * 2
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(Self.width))" height="\(Int(height))" \
            font-family="Helvetica, Arial, sans-serif" font-size="12">
            <defs>
            <filter id="glow" x="-50%" y="-50%" width="200%" height="200%">\
            <feGaussianBlur stdDeviation="2.5" result="blur"/>\
            <feMerge><feMergeNode in="blur"/><feMergeNode in="SourceGraphic"/></feMerge></filter>
            <pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">\
            <line x1="0" y1="0" x2="0" y2="6" stroke="#c9c9c9" stroke-width="2"/></pattern>
            </defs>
            <rect width="100%" height="100%" fill="#ffffff"/>
            <text x="\(Self.margin)" y="24" font-size="16" font-weight="bold">\(escape(title))</text>

            """
        svg += tracePanel(top: Self.margin)
        svg += historyPanel(top: Self.margin * 2 + Self.panelHeight)
        svg += "</svg>\n"
        return svg
    }

    private func tracePanel(top: Double) -> String {
        let x = Axis(
            fromMs: nowMs - Self.traceSpanMs,
            toMs: nowMs,
            left: Self.margin,
            width: Self.width - 2 * Self.margin
        )
        let y = ValueAxis(values: trace.map(\.value), top: top, height: Self.panelHeight)
        var out = frame(top: top, label: "last five minutes (live trace)", y: y)
        if let missedMs {
            let from = x.position(max(missedMs.lowerBound, x.fromMs))
            let to = x.position(min(missedMs.upperBound, x.toMs))
            if to > from {
                out += "<rect x=\"\(format(from))\" y=\"\(format(top))\" width=\"\(format(to - from))\" "
                out += "height=\"\(format(Self.panelHeight))\" fill=\"url(#hatch)\"><title>missed</title></rect>\n"
            }
        }
        let visible = trace.filter { $0.timeMs >= x.fromMs && $0.timeMs <= x.toMs }
        for run in Dictionary(grouping: visible, by: \.run).sorted(by: { $0.key < $1.key }).map(\.value) {
            for seen in [false, true] {
                let points = run.filter { $0.seen == seen }
                guard points.count > 1 else { continue }
                let path = points.map { "\(format(x.position($0.timeMs))),\(format(y.position($0.value)))" }
                let style = seen ? "stroke=\"#0a84ff\" filter=\"url(#glow)\"" : "stroke=\"#1c1c1e\""
                out +=
                    "<polyline fill=\"none\" stroke-width=\"2\" \(style) points=\"\(path.joined(separator: " "))\"/>\n"
            }
        }
        if let head = visible.last(where: \.seen) {
            out += "<circle cx=\"\(format(x.position(head.timeMs)))\" cy=\"\(format(y.position(head.value)))\" r=\"4\" "
            out += "fill=\"#0a84ff\" filter=\"url(#glow)\"><title>live head</title></circle>\n"
        }
        return out
    }

    private func historyPanel(top: Double) -> String {
        guard let history, let column = history.column(series) else {
            return frame(
                top: top,
                label: "48 hours (no history held)",
                y: ValueAxis(values: [], top: top, height: Self.panelHeight)
            )
        }
        let x = Axis(
            fromMs: history.fromMs,
            toMs: max(history.toMs, nowMs),
            left: Self.margin,
            width: Self.width - 2 * Self.margin
        )
        let values = column.samples.compactMap { sample -> Double? in
            if case .value(let value) = sample { return Double(value) }
            return nil
        }
        let y = ValueAxis(values: values, top: top, height: Self.panelHeight)
        var out = frame(top: top, label: "48 hours (\(series), five-minute steps)", y: y)
        var path = ""
        var lastValue: Double?
        for (index, sample) in column.samples.enumerated() {
            let start = history.fromMs + Int64(index) * history.stepMs
            let left = x.position(start)
            let right = x.position(start + history.stepMs)
            switch sample {
            case .value(let value):
                let level = y.position(Double(value))
                path +=
                    path.isEmpty || lastValue == nil
                    ? "M\(format(left)),\(format(level))" : "L\(format(left)),\(format(level))"
                path += "L\(format(right)),\(format(level))"
                lastValue = Double(value)
            case .onTheirWay:
                let level = y.position(lastValue ?? 0)
                out +=
                    "<line x1=\"\(format(left))\" y1=\"\(format(level))\" x2=\"\(format(right))\" y2=\"\(format(level))\" "
                out +=
                    "stroke=\"#8e8e93\" stroke-width=\"2\" stroke-dasharray=\"2 3\"><title>on their way</title></line>\n"
            case .gap(let reason):
                out += "<rect x=\"\(format(left))\" y=\"\(format(top))\" width=\"\(format(right - left))\" "
                out +=
                    "height=\"\(format(Self.panelHeight))\" fill=\"#fff1c2\"><title>\(escape(reason.rawValue))</title></rect>\n"
                lastValue = nil
            case .missing, .absent:
                lastValue = nil
            }
            if lastValue == nil, !path.isEmpty {
                out += "<path d=\"\(path)\" fill=\"none\" stroke=\"#1c1c1e\" stroke-width=\"1.5\"/>\n"
                path = ""
            }
        }
        if !path.isEmpty { out += "<path d=\"\(path)\" fill=\"none\" stroke=\"#1c1c1e\" stroke-width=\"1.5\"/>\n" }
        return out
    }

    private func frame(top: Double, label: String, y: ValueAxis) -> String {
        var out =
            "<rect x=\"\(format(Self.margin))\" y=\"\(format(top))\" width=\"\(format(Self.width - 2 * Self.margin))\" "
        out += "height=\"\(format(Self.panelHeight))\" fill=\"none\" stroke=\"#d1d1d6\"/>\n"
        out += "<text x=\"\(format(Self.margin))\" y=\"\(format(top - 6))\" fill=\"#3a3a3c\">\(escape(label))</text>\n"
        if let zero = y.zeroPosition {
            out +=
                "<line x1=\"\(format(Self.margin))\" y1=\"\(format(zero))\" x2=\"\(format(Self.width - Self.margin))\" "
            out += "y2=\"\(format(zero))\" stroke=\"#e5e5ea\"/>\n"
        }
        out += "<text x=\"4\" y=\"\(format(top + 12))\" fill=\"#8e8e93\">\(Int(y.maximum)) W</text>\n"
        out += "<text x=\"4\" y=\"\(format(top + Self.panelHeight))\" fill=\"#8e8e93\">\(Int(y.minimum)) W</text>\n"
        return out
    }

    private func format(_ value: Double) -> String { String(format: "%.1f", value) }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}

/// A time axis: Unix ms to a horizontal position.
private struct Axis {
    let fromMs: Int64
    let toMs: Int64
    let left: Double
    let width: Double

    func position(_ timeMs: Int64) -> Double {
        guard toMs > fromMs else { return left }
        return left + width * Double(timeMs - fromMs) / Double(toMs - fromMs)
    }
}

/// A value axis: watts to a vertical position, always including zero.
private struct ValueAxis {
    let minimum: Double
    let maximum: Double
    let top: Double
    let height: Double

    init(values: [Double], top: Double, height: Double) {
        let low = min(values.min() ?? 0, 0)
        let high = max(values.max() ?? 0, 0)
        minimum = low
        maximum = high > low ? high : low + 1
        self.top = top
        self.height = height
    }

    func position(_ value: Double) -> Double {
        top + height * (1 - (value - minimum) / (maximum - minimum))
    }

    var zeroPosition: Double? { minimum < 0 && maximum > 0 ? position(0) : nil }
}
