extension Message: CustomStringConvertible {
    /// One line a person reads in a log: the wire type and what matters of the body (counts, not contents), so a
    /// printed message or event never runs to kilobytes.
    public var description: String {
        "\(type) \(summary)".trimmingTrailingSpace
    }

    /// The body, summarised: ids, times and sizes.
    private var summary: String {
        switch self {
        case .hello(let hello): "proto \(hello.proto.min)-\(hello.proto.max), app \(hello.app.build)"
        case .helloOK(let ok):
            "box \(ok.box.id) proto \(ok.proto) mode \(ok.mode), \(ok.role.rawValue), \(ok.modes.count) modes,"
                + " \(ok.caps.count) caps"
        case .sub(let sub): "bucket \(sub.bucket), \(sub.hz) Hz"
        case .snap(let snap):
            "uptime \(snap.uptimeMs) ms, \(snap.fields.count) fields, \(snap.sources.count) sources,"
                + " controlRev \(snap.controlRev)"
        case .delta(let delta):
            "seq \(delta.seq) uptime \(delta.uptimeMs) ms, \(delta.fields.count) fields"
                + (delta.sources.map { ", \($0.count) sources" } ?? "")
        case .tick(let tick): "seq \(tick.seq) uptime \(tick.uptimeMs) ms"
        case .planGet, .unknown: ""
        case .plan(let plan): "rev \(plan.rev), \(plan.slots.count) slots\(plan.stale ? ", stale" : "")"
        case .priceGet(let get): "\(get.fromMs)..\(get.toMs)"
        case .price(let price): "\(price.slots.count) slots in \(price.currency)\(price.stale ? ", stale" : "")"
        case .histQuery(let query):
            "\(query.res.rawValue) \(query.series.count) series \(query.fromMs)..\(query.toMs), have \(query.have.count)"
        case .histChunk(let chunk):
            "tile \(chunk.tileId) \(chunk.res.rawValue), \(chunk.data.count) bytes\(chunk.partial ? ", partial" : "")"
        case .histEnd(let end): "\(end.resActual.rawValue), \(end.gaps.count) gaps"
        case .apiReq(let request): "\(request.method) \(request.path)"
        case .apiHead(let head): "status \(head.status)\(head.len.map { ", \($0) bytes" } ?? "")"
        case .apiChunk(let chunk): "seq \(chunk.seq), \(chunk.data.count) bytes"
        case .apiEnd: ""
        case .cmd(let command): "\(command.op.rawValue) \(command.cmdId)"
        case .cmdAck(let ack): "\(ack.cmdId) lease \(ack.leaseId)"
        case .cmdResult(let result): "\(result.cmdId) \(result.state.rawValue)"
        case .event(let event): "\(event.kind) \(event.severity)"
        case .error(let error): "\(error.code.rawValue)\(error.retryable ? ", retryable" : "")"
        case .sessionTerminate(let terminate): terminate.reason.rawValue
        }
    }
}

extension String {
    /// The text without the space a body-less message's summary leaves.
    fileprivate var trimmingTrailingSpace: String {
        hasSuffix(" ") ? String(dropLast()) : self
    }
}
