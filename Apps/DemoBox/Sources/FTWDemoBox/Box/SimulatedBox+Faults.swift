import FTWBoxProtocol

extension SimulatedBox {
    /// Makes `fault.read` fail as `fault.kind`: the next such read only, or every one until ``stopFailing(_:)``.
    /// The request is still listed in ``receivedRequests``; nothing else about the box changes.
    public func failRead(_ fault: ReadFault) {
        readFaults.set(fault)
    }

    /// Lifts the fault set on `read`: it is answered again.
    public func stopFailing(_ read: BoxRead) {
        readFaults.lift(read)
    }

    /// Fails the request in `envelope` as a fault asks, if one is set on its read; false when the box answers it as
    /// usual.
    func failedOnPurpose(_ envelope: Envelope, session number: Int) -> Bool {
        guard let read = BoxRead(envelope), envelope.id != nil || read == .hello, let kind = readFaults.take(read)
        else { return false }
        let id = envelope.id
        switch (kind, read) {
        case (.timeout, _):
            break
        case (.busy, .hello):
            onHello(envelope, session: number, booting: true)
        case (.busy, _):
            let args: CBORMap =
                read == .history ? ["subsystem": "history", "reason": "busy"] : ["reason": "busy"]
            sendError(.unavailable, args, id: id, to: number)
        case (.refused, _):
            let args: CBORMap =
                envelope.type == APIRequest.wireType
                ? ["t": .text(envelope.type), "field": "path"] : ["t": .text(envelope.type)]
            sendError(.unknownOp, args, id: id, to: number)
        case (.denied, _):
            sendError(.scopeDenied, ["t": .text(envelope.type), "role": "viewer"], id: id, to: number)
        case (.malformed, _):
            for answer in Self.malformedAnswer(to: envelope.type) {
                send(envelope: Envelope(type: answer.type, id: id, body: answer.body), lane: .bulk, to: number)
            }
        }
        return true
    }

    /// An answer to a request of `type` that its reader cannot take: a 200 whose body is not JSON for the API, and a
    /// body with a field of the wrong type for the rest (`hello_ok` for a hello).
    private static func malformedAnswer(to type: String) -> [(type: String, body: CBOR)] {
        let notJSON: [UInt8] = Array(#"{"malformed": "#.utf8)
        switch type {
        case APIRequest.wireType:
            return [
                (APIHead.wireType, ["status": 200, "headers": ["Content-Type": "application/json"], "len": .null]),
                (APIChunk.wireType, ["seq": 0, "data": .bytes(notJSON)]),
                (APIEnd.wireType, ["bytes": .int(Int64(notJSON.count)), "truncated": false]),
            ]
        case Plan.requestWireType: return [(Plan.wireType, ["rev": "malformed", "slots": "malformed"])]
        case PriceGet.wireType: return [(Price.wireType, ["zone": 46, "slots": "malformed"])]
        case Hello.wireType: return [(HelloOK.wireType, ["proto": "malformed"])]
        default: return [(HistChunk.wireType, ["tileId": 7, "data": "malformed"])]
        }
    }
}
