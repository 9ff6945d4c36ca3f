extension LiveTrace {
    /// The time the app missed, as a span: nil when nothing was read back from the ring file.
    public var missedTime: MissedTime? {
        restored.map { MissedTime(fromMs: $0.newestMs, untilMs: $0.firstLiveMs) }
    }

    /// What a chart draws for `field` now, read in one step so the samples, the gap and the cloud's liveness agree.
    public func trace(of field: TraceField) -> FieldTrace {
        var trace = FieldTrace(field: field, samples: samples(field: field.id), missed: missedTime)
        trace.cloudLiveness = cloudLiveness()
        return trace
    }
}
