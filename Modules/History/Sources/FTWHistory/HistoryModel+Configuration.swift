public import FTWBoxProtocol
public import FTWCache
public import FTWClockSeam

extension HistoryModel {
    /// What the model asks for and how it draws: the series, the resolution, the window and the display frame.
    public struct Configuration: Sendable, Hashable {
        /// The four series of a home's history.
        public static let homeSeries = ["grid_w", "pv_w", "battery_w", "load_w"]

        /// The series asked for, in column order.
        public var series: [String]
        /// The resolution asked for.
        public var resolution: HistoryResolution
        /// How far back the window reaches from now (48 hours: five tiles of 12 h, the last still filling).
        public var span: Duration
        /// The cap sent as `maxPoints`; nil leaves the box's default, which keeps 48 hours at stride 1.
        public var maxPoints: Int?
        /// Tiles that land within one display frame reach observers as one change (`DisplayFrame`'s 1/60 s).
        public var displayFrame: Duration
        /// The age bucket the window is named by: an answer stands while the bucket holds.
        public var nameBucket: Duration

        /// Makes a configuration; the defaults are a home's 48-hour window at five minutes.
        public init(
            series: [String] = Self.homeSeries,
            resolution: HistoryResolution = .fiveMinutes,
            span: Duration = .seconds(48 * 3600),
            maxPoints: Int? = nil,
            displayFrame: Duration = DisplayFrame.duration,
            nameBucket: Duration = .seconds(300)
        ) {
            self.series = series
            self.resolution = resolution
            self.span = span
            self.maxPoints = maxPoints
            self.displayFrame = displayFrame
            self.nameBucket = nameBucket
        }

        /// The five-minute name of the window at `nowMs`: what an answer is recorded and sealed under.
        public func name(atMs nowMs: Int64) -> AskName {
            let bucketMs = max(1, nameBucket.wholeMilliseconds)
            let bucket = nowMs >= 0 ? nowMs / bucketMs : (nowMs + 1) / bucketMs - 1
            return AskName("history, five minutes \(bucket)")
        }

        var spanMs: Int64 { span.wholeMilliseconds }

        /// The box's plan for `[fromMs, toMs)` as seen at `nowMs`.
        func plan(fromMs: Int64, toMs: Int64, nowMs: Int64) -> HistoryPlan {
            HistoryGeometry.plan(res: resolution, fromMs: fromMs, toMs: toMs, maxPoints: maxPoints, nowMs: nowMs)
        }

        /// The box's plan for the window ending at `nowMs`.
        func windowPlan(nowMs: Int64) -> HistoryPlan {
            plan(fromMs: nowMs - spanMs, toMs: nowMs, nowMs: nowMs)
        }
    }
}
