import FTWClient
import Foundation

/// What the client's observations last gave, each value with its moment (`AsOf`): the home screen, the mode names
/// from the box's hello, the prices, the plan, one node's trace and the connection. A frame is drawn from this and
/// now alone.
public struct Shown: Sendable {
    /// The home screen: the readings, where they come from, the chargers.
    public var home: HomeScreen?
    /// The box's mode catalogue from its hello (sealed, so known before connecting): the mode reading's names.
    public var modes: [HomeMode] = []
    /// The prices and when they were answered.
    public var prices: ShownAnswer<PriceWindow>?
    /// The plan and when it was answered.
    public var plan: ShownAnswer<ShownPlan>?
    /// The charted node's trace.
    public var trace: FieldTrace?
    /// Where the connection stands.
    public var connection: ConnectionStatus = .idle
    /// The zone the clock times are said in: the home's, from its hello.
    public var timeZone: TimeZone = .current

    /// Nothing shown yet.
    public init() {}

    /// Whether the first frame can be drawn: the home screen and the trace have given their first values (what
    /// the sealed files drew).
    public var isReady: Bool { home != nil && trace != nil }
}
