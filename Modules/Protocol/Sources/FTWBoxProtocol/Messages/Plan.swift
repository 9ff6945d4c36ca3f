/// `plan` (box → app, bulk lane): the box's dispatch plan, answering `plan.get` or pushed after an applied command
/// (§2.6, §6).
public struct Plan: NestedWireBody {
    /// The wire type.
    public static let wireType = "plan"
    /// The wire type of the request, which has no body.
    public static let requestWireType = "plan.get"

    /// Bumped whenever the planner makes a new plan; 0 when there is none.
    public var rev: UInt64
    /// Box uptime when the plan was made.
    public var uptimeMs: Int64
    /// The slots, oldest first.
    public var slots: [PlanSlot]
    /// Set when there is no plan or it is older than 30 minutes.
    public var stale: Bool
    /// The import ceiling being defended in W; nil (null on the wire) when there is none.
    public var ceilingW: Int64?

    /// Makes a plan.
    public init(rev: UInt64, uptimeMs: Int64, slots: [PlanSlot], stale: Bool, ceilingW: Int64? = nil) {
        self.rev = rev
        self.uptimeMs = uptimeMs
        self.slots = slots
        self.stale = stale
        self.ceilingW = ceilingW
    }

    /// Reads a plan.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: Self.wireType))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        rev = try reader.field("rev").uint64()
        uptimeMs = try reader.field("uptimeMs").milliseconds()
        slots = try reader.field("slots").list()
        stale = try reader.field("stale").bool()
        ceilingW = try reader.optional("ceilingW")?.int64()
    }

    /// The plan in the box's key order, `ceilingW` null when there is none.
    public var body: CBOR {
        let map: CBORMap = [
            "rev": .unsigned(rev), "uptimeMs": .int(uptimeMs), "slots": .list(slots), "stale": .bool(stale),
            "ceilingW": .nullable(ceilingW),
        ]
        return CBOR.map(map).inDeterministicOrder
    }
}
