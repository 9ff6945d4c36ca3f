/// A name the box and the app share on the wire: a capability, a scope, an error code, a source state.
///
/// Each is a struct around its string rather than an enum, because a newer box may send a name this build has never
/// heard of; it must arrive intact (and compare, print and round-trip) instead of failing the whole message. The
/// names this build knows are `static let`s, so code reads `state == .live`; a string literal works too.
public protocol WireName: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name as it appears on the wire.
    var rawValue: String { get }
    /// Wraps a name as it appears on the wire.
    init(rawValue: String)
}

extension WireName {
    /// Wraps a literal name.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    /// The wire name.
    public var description: String { rawValue }
}
