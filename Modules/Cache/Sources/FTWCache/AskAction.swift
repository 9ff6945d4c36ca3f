/// What an ``AskDecision`` tells its model to do.
public enum AskAction: Sendable, Hashable {
    /// Nothing: the answer stands, nobody wants it, or a rule holds the ask back.
    case none
    /// Ask the box under this name; `byPerson` puts it first in the read order. Its outcome comes back as
    /// ``AskInput/answered(askedAtMs:)`` or ``AskInput/failed(_:)``.
    case ask(AskName, byPerson: Bool)
    /// The box said it does not carry the read: seal that verdict with its build so a relaunch asks nothing of it.
    case sealVerdict
    /// Keep the pushed answer under this name, and seal it.
    case keep(AskName)
}
