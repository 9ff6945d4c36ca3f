extension Message {
    /// The lane the message travels on (§1.3): lane 0 for the fixed-size stream of telemetry, commands and errors,
    /// the bulk lane for everything whose size depends on what was asked. Unknown types default to lane 0.
    public var lane: Lane {
        switch self {
        case .hello, .sub, .cmd, .tick, .delta, .cmdAck, .cmdResult, .error, .sessionTerminate, .event, .unknown:
            .control
        case .helloOK, .snap, .planGet, .plan, .priceGet, .price, .histQuery, .histChunk, .histEnd, .apiReq,
            .apiHead, .apiChunk, .apiEnd:
            .bulk
        }
    }
}
