import FTWBoxProtocol
import FTWClockSeam

extension SimulatedBox {
    /// The step-up grace window, in box uptime.
    static let stepUpWindowMs: Int64 = 300_000

    /// `api.req` → `api.head`, `api.chunk`s, `api.end`, or an `error` when no handler runs (§7).
    ///
    /// Checked in order: the request's shape (`E_UNKNOWN_OP {field}`), a route that claims it, the grant, the
    /// route's tier, and the session's one API slot (`E_UNAVAILABLE {reason: busy}`).
    func onAPIRequest(_ envelope: Envelope, session number: Int) {
        guard let id = envelope.id, let body = Self.body(envelope.body, defaults: ["method": "", "path": ""]),
            let request = try? APIRequest(body: body), let index = index(of: number)
        else { return }
        let shape: (String) -> CBORMap = { ["t": .text(APIRequest.wireType), "field": .text($0)] }
        if let field = APIRoutes.invalidField(request) {
            return sendError(.unknownOp, shape(field), id: id, to: number)
        }
        guard
            let found = APIRoutes.route(
                method: request.method,
                path: request.path,
                servesPlannerPrefs: configuration.servesPlannerPrefs
            )
        else { return sendError(.unknownOp, shape("path"), id: id, to: number) }
        guard let device = enrolment.device(appKey: sessions[index].appKey) else {
            sendError(.grantRevoked, [:], id: id, to: number)
            return terminateRevoked(session: number)
        }
        if let refusal = gate(found.0, request, role: device.role, session: index) {
            return send(.error(refusal), id: id, to: number)
        }
        guard !sessions[index].isAPIBusy else {
            return sendError(.unavailable, ["reason": "busy"], id: id, to: number)
        }
        sessions[index].isAPIBusy = true
        let answer = handle(found.0.handler, found.1, request)
        schedule(
            .apiAnswer(session: number, id: id, messages: answer.messages(for: request)),
            after: configuration.apiServiceTime
        )
    }

    /// The handler is done: its frames go out and the slot frees.
    func finishAPI(session number: Int, id: UInt32, messages: [Message]) {
        for message in messages { send(message, id: id, to: number) }
        if let index = index(of: number) { sessions[index].isAPIBusy = false }
    }

    /// The tier's answer for a route no handler may run for this caller, or nil to serve it.
    private func gate(_ route: APIRoute, _ request: APIRequest, role: String, session index: Int) -> ErrorBody? {
        let path = CBOR.text(request.path)
        switch route.tier {
        case .read:
            return nil
        case .configure:
            if route.replacesAll { return ErrorBody(code: .wholeDocument, args: ["path": path]) }
            guard role == Role.owner.rawValue else {
                return ErrorBody(code: .scopeDenied, args: ["needRole": "owner", "role": .text(role)])
            }
            let nowMs = uptime.nowMs
            if request.stepUp {
                sessions[index].stepUpUntilMs = nowMs + Self.stepUpWindowMs
                return nil
            }
            return nowMs < sessions[index].stepUpUntilMs
                ? nil : ErrorBody(code: .needsStepUp, args: ["tier": "configure"])
        case .actuate:
            var args: CBORMap = ["path": path]
            if let op = route.op { args["op"] = .text(op) }
            return ErrorBody(code: .useCommand, args: args)
        case .local:
            return ErrorBody(code: .localOnly, args: ["path": path])
        }
    }
}
