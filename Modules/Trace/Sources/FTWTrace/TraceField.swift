import FTWBoxProtocol

/// A traced field by its name and unit, as a chart labels it: the registry's frozen fields (`battery_w` in W,
/// `battery_soc` in permille, …), so a caller never spells a field id.
public struct TraceField: Sendable, Hashable, CustomStringConvertible {
    /// The field id the rings are kept under.
    public var id: Int
    /// The field's name, such as `battery_w`.
    public var name: String
    /// Its unit (`W`, `permille`); nil when the registry gives none.
    public var unit: String?

    /// The frozen field named `name`; nil for a name the registry does not know.
    public init?(named name: String) {
        guard let field = FieldID.frozen.first(where: { $0.name == name }) else { return nil }
        self.init(field)
    }

    /// The frozen field with id `id`; nil for an id the registry does not know.
    public init?(id: Int) {
        guard let field = FieldID.frozen.first(where: { $0.id == id }) else { return nil }
        self.init(field)
    }

    private init(_ field: FrozenField) {
        id = field.id
        name = field.name
        unit = field.unit
    }

    /// Every field a trace can hold a ring for: the registry's power fields and the state of charge.
    public static let traced: [TraceField] = FieldID.frozen.filter { ["power", "ratio"].contains($0.kind) }.map {
        TraceField($0)
    }

    /// The name and, in brackets, the unit: `battery_w [W]`.
    public var description: String { unit.map { "\(name) [\($0)]" } ?? name }
}
