import FTWBoxProtocol
import FTWClockSeam
import FTWNoise
import FTWSessionInterface

extension SimulatedBox {
    /// One decrypted frame of session `number`: recorded if it asks something, then answered by its type.
    func handleFrame(_ bytes: [UInt8], session number: Int) {
        guard let frame = try? Frame.decode(bytes), let envelope = try? Envelope.decode(frame.payload) else { return }
        if RequestDetail.requestTypes.contains(envelope.type) {
            received.append(
                ReceivedRequest(
                    type: envelope.type,
                    id: envelope.id,
                    atMs: wallClock.nowMs,
                    connection: number,
                    detail: RequestDetail.describe(envelope)
                )
            )
        }
        if failedOnPurpose(envelope, session: number) { return }
        switch envelope.type {
        case Hello.wireType: onHello(envelope, session: number)
        case Sub.wireType: onSub(envelope, session: number)
        case Plan.requestWireType: onPlanGet(envelope, session: number)
        case PriceGet.wireType: onPriceGet(envelope, session: number)
        case HistQuery.wireType: onHistQuery(envelope, session: number)
        case APIRequest.wireType: onAPIRequest(envelope, session: number)
        case Command.wireType: onCommand(envelope, session: number)
        default:
            guard let id = envelope.id else { return }
            sendError(.unknownOp, ["t": .text(envelope.type)], id: id, to: number)
        }
    }

    /// Seals `message` for session `number` and passes it to the room; lane 0 frames take the session's bucket.
    func send(_ message: Message, id: UInt32?, to number: Int, flags: FrameFlags = []) {
        send(envelope: message.envelope(id: id), lane: message.lane, to: number, flags: flags)
    }

    /// Seals `envelope` on `lane` for session `number` and passes it to the room.
    func send(envelope: Envelope, lane: Lane, to number: Int, flags: FrameFlags = []) {
        guard let index = index(of: number) else { return }
        let bucket = lane == .control ? sessions[index].controlBucket : nil
        let frame = Frame(lane: lane, flags: flags, payload: envelope.encoded(), bucket: bucket)
        guard let bytes = try? frame.encoded() else { return }
        guard let wire = try? sessions[index].noise.seal(bytes) else { return closeSession(number) }
        relay(.toRoom(.binary(wire)))
    }

    /// An `error` on lane 0, in the session's bucket, whatever lane the request came on.
    func sendError(_ code: ErrorCode, _ args: CBORMap, id: UInt32?, to number: Int) {
        send(.error(ErrorBody(code: code, args: args)), id: id, to: number)
    }

    /// The grant is gone: `session.terminate {revoked}`, then the session closes.
    func terminateRevoked(session number: Int) {
        send(.sessionTerminate(SessionTerminate(reason: .revoked)), id: nil, to: number)
        closeSession(number)
    }

    /// A body read as the box reads it: fields it would decode as their zero value when absent are filled in first,
    /// so only a present field of the wrong type (a float time, say) makes the message undecodable.
    static func body(_ value: CBOR?, defaults: CBORMap) -> CBOR? {
        guard case .map(var map)? = value else { return nil }
        for entry in defaults.entries where map[key: entry.key] == nil { map[key: entry.key] = entry.value }
        return .map(map)
    }
}
