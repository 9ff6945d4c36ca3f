extension Duration {
    /// The duration in whole milliseconds, rounded toward zero: the unit every time on the box's wire is sent in.
    public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}

extension Duration {
    /// The duration in whole nanoseconds, rounded toward zero, clamped to `Int64` (292 years either way): the unit a
    /// ``MovingDeadlineClock`` asks its sleeper in.
    public var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        guard seconds < Int64.max / 1_000_000_000 else { return .max }
        guard seconds > Int64.min / 1_000_000_000 else { return .min }
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
