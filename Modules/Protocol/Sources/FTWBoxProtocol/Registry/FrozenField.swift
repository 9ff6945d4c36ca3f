/// One frozen field as the registry describes it: what a field id means whatever box sends it.
public struct FrozenField: Sendable, Hashable {
    /// The field id, the key in `fields` and `dict`.
    public var id: Int
    /// The field's name, which is also its history series name for the power fields (`grid_w`).
    public var name: String
    /// What kind of quantity it is: `enum`, `power`, `ratio` or `source_ref`.
    public var kind: String
    /// The unit on the wire, nil where the registry says null.
    public var unit: String?

    /// Makes a description.
    public init(id: Int, name: String, kind: String, unit: String?) {
        self.id = id
        self.name = name
        self.kind = kind
        self.unit = unit
    }
}
