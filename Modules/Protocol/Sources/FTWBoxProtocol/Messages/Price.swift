/// `price` (box → app, bulk lane, echoes the id): the answer to `price.get` (§2.7, §5).
public struct Price: NestedWireBody {
    /// The wire type.
    public static let wireType = "price"
    /// The currency when the box does not say (the Swift client's default).
    public static let defaultCurrency = "SEK"

    /// The bidding zone, such as `SE3`.
    public var zone: String
    /// The ISO currency of every price, such as `SEK` or `EUR`.
    public var currency: String
    /// The slots overlapping the window, oldest first.
    public var slots: [PriceSlot]
    /// Set when the slots do not cover the whole window.
    public var stale: Bool

    /// Makes an answer.
    public init(zone: String, currency: String = Price.defaultCurrency, slots: [PriceSlot], stale: Bool) {
        self.zone = zone
        self.currency = currency
        self.slots = slots
        self.stale = stale
    }

    /// Reads an answer.
    public init(body: CBOR) throws(ProtocolError) {
        try self.init(from: BodyReader(body, path: Self.wireType))
    }

    init(from reader: BodyReader) throws(ProtocolError) {
        zone = try reader.field("zone").text()
        currency = try reader.optional("currency")?.text() ?? Self.defaultCurrency
        slots = try reader.field("slots").list()
        stale = try reader.field("stale").bool()
    }

    /// The answer in the box's key order.
    public var body: CBOR {
        let map: CBORMap = [
            "zone": .text(zone), "currency": .text(currency), "slots": .list(slots), "stale": .bool(stale),
        ]
        return CBOR.map(map).inDeterministicOrder
    }
}
