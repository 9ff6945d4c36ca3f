extension Duration {
    /// The duration in whole milliseconds, rounded toward zero: the unit every time on the box's wire is sent in.
    public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
