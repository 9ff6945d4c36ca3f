/// What a model wants, named by the data's age: "history, five-minute bucket 2026-12-02T10:05", "plan, quarter
/// 10:00", "prices, day 2026-12-02, tomorrow published: no".
///
/// An answer stands while the name it was asked under still holds; when the five minutes, the quarter or the day
/// turn, the name changes and the model asks again. Names are plain values so they can be logged, sealed with the
/// answer and compared after a kill.
public struct AskName: Sendable, Hashable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The name as text.
    public var rawValue: String

    /// Makes a name.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Makes a name from a literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The name as text.
    public var description: String { rawValue }
}
