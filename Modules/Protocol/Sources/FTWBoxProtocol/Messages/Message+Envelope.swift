extension Message {
    /// The wire type, the envelope's `t`.
    public var type: String {
        switch self {
        case .hello: Hello.wireType
        case .helloOK: HelloOK.wireType
        case .sub: Sub.wireType
        case .snap: Snap.wireType
        case .delta: Delta.wireType
        case .tick: Tick.wireType
        case .planGet: Plan.requestWireType
        case .plan: Plan.wireType
        case .priceGet: PriceGet.wireType
        case .price: Price.wireType
        case .histQuery: HistQuery.wireType
        case .histChunk: HistChunk.wireType
        case .histEnd: HistEnd.wireType
        case .apiReq: APIRequest.wireType
        case .apiHead: APIHead.wireType
        case .apiChunk: APIChunk.wireType
        case .apiEnd: APIEnd.wireType
        case .cmd: Command.wireType
        case .cmdAck: CommandAck.wireType
        case .cmdResult: CommandResult.wireType
        case .event: BoxEvent.wireType
        case .error: ErrorBody.wireType
        case .sessionTerminate: SessionTerminate.wireType
        case .unknown(let type): type
        }
    }

    /// The body as its sender writes it; nil for `plan.get` and unknown types.
    public var body: CBOR? {
        switch self {
        case .hello(let body): body.body
        case .helloOK(let body): body.body
        case .sub(let body): body.body
        case .snap(let body): body.body
        case .delta(let body): body.body
        case .tick(let body): body.body
        case .planGet, .unknown: nil
        case .plan(let body): body.body
        case .priceGet(let body): body.body
        case .price(let body): body.body
        case .histQuery(let body): body.body
        case .histChunk(let body): body.body
        case .histEnd(let body): body.body
        case .apiReq(let body): body.body
        case .apiHead(let body): body.body
        case .apiChunk(let body): body.body
        case .apiEnd(let body): body.body
        case .cmd(let body): body.body
        case .cmdAck(let body): body.body
        case .cmdResult(let body): body.body
        case .event(let body): body.body
        case .error(let body): body.body
        case .sessionTerminate(let body): body.body
        }
    }

    /// The envelope that carries the message.
    ///
    /// - Parameter id: The request id, or nil for an unsolicited message.
    public func envelope(id: UInt32?) -> Envelope {
        Envelope(type: type, id: id, body: body)
    }

    /// Reads the message an envelope carries; an unknown type becomes ``unknown(type:)``.
    ///
    /// - Throws: ``ProtocolError`` from the body's reader, or `.missingField` when a type that needs a body has
    ///   none.
    public init(envelope: Envelope) throws(ProtocolError) {
        // A switch rather than a table keyed by type: comparing short ASCII names costs less than hashing one, and the
        // two 1 Hz types come first.
        switch envelope.type {
        case Tick.wireType: self = .tick(try Self.read(envelope))
        case Delta.wireType: self = .delta(try Self.read(envelope))
        case Hello.wireType: self = .hello(try Self.read(envelope))
        case HelloOK.wireType: self = .helloOK(try Self.read(envelope))
        case Sub.wireType: self = .sub(try Self.read(envelope))
        case Snap.wireType: self = .snap(try Self.read(envelope))
        case Plan.wireType: self = .plan(try Self.read(envelope))
        case PriceGet.wireType: self = .priceGet(try Self.read(envelope))
        case Price.wireType: self = .price(try Self.read(envelope))
        case HistQuery.wireType: self = .histQuery(try Self.read(envelope))
        case HistChunk.wireType: self = .histChunk(try Self.read(envelope))
        case HistEnd.wireType: self = .histEnd(try Self.read(envelope))
        case APIRequest.wireType: self = .apiReq(try Self.read(envelope))
        case APIHead.wireType: self = .apiHead(try Self.read(envelope))
        case APIChunk.wireType: self = .apiChunk(try Self.read(envelope))
        case APIEnd.wireType: self = .apiEnd(try Self.read(envelope))
        case Command.wireType: self = .cmd(try Self.read(envelope))
        case CommandAck.wireType: self = .cmdAck(try Self.read(envelope))
        case CommandResult.wireType: self = .cmdResult(try Self.read(envelope))
        case BoxEvent.wireType: self = .event(try Self.read(envelope))
        case ErrorBody.wireType: self = .error(try Self.read(envelope))
        case SessionTerminate.wireType: self = .sessionTerminate(try Self.read(envelope))
        case Plan.requestWireType: self = .planGet
        default: self = .unknown(type: envelope.type)
        }
    }

    /// The envelope's body read as `Body`.
    private static func read<Body: WireBody>(_ envelope: Envelope) throws(ProtocolError) -> Body {
        guard let body = envelope.body else {
            throw ProtocolError(.missingField, "\(envelope.type): the message has no body `b`", field: "b")
        }
        return try Body(body: body)
    }
}
