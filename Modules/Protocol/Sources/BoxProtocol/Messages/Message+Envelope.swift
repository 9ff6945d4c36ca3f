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
        if envelope.type == Plan.requestWireType {
            self = .planGet
            return
        }
        guard let read = Self.readers[envelope.type] else {
            self = .unknown(type: envelope.type)
            return
        }
        guard let body = envelope.body else {
            throw ProtocolError(.missingField, "\(envelope.type): the message has no body `b`", field: "b")
        }
        self = try read(body)
    }

    private typealias Reader = @Sendable (CBOR) throws(ProtocolError) -> Message

    private static func reader<Body: WireBody>(
        _ body: Body.Type,
        _ wrap: @escaping @Sendable (Body) -> Message
    ) -> Reader {
        { (value: CBOR) throws(ProtocolError) in wrap(try Body(body: value)) }
    }

    private static let readers: [String: Reader] = [
        Hello.wireType: reader(Hello.self, Message.hello),
        HelloOK.wireType: reader(HelloOK.self, Message.helloOK),
        Sub.wireType: reader(Sub.self, Message.sub),
        Snap.wireType: reader(Snap.self, Message.snap),
        Delta.wireType: reader(Delta.self, Message.delta),
        Tick.wireType: reader(Tick.self, Message.tick),
        Plan.wireType: reader(Plan.self, Message.plan),
        PriceGet.wireType: reader(PriceGet.self, Message.priceGet),
        Price.wireType: reader(Price.self, Message.price),
        HistQuery.wireType: reader(HistQuery.self, Message.histQuery),
        HistChunk.wireType: reader(HistChunk.self, Message.histChunk),
        HistEnd.wireType: reader(HistEnd.self, Message.histEnd),
        APIRequest.wireType: reader(APIRequest.self, Message.apiReq),
        APIHead.wireType: reader(APIHead.self, Message.apiHead),
        APIChunk.wireType: reader(APIChunk.self, Message.apiChunk),
        APIEnd.wireType: reader(APIEnd.self, Message.apiEnd),
        Command.wireType: reader(Command.self, Message.cmd),
        CommandAck.wireType: reader(CommandAck.self, Message.cmdAck),
        CommandResult.wireType: reader(CommandResult.self, Message.cmdResult),
        BoxEvent.wireType: reader(BoxEvent.self, Message.event),
        ErrorBody.wireType: reader(ErrorBody.self, Message.error),
        SessionTerminate.wireType: reader(SessionTerminate.self, Message.sessionTerminate),
    ]
}
