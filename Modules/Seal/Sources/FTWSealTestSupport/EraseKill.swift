import FTWBus
public import FTWSealInterface
import Synchronization

/// A stand-in for a process killed part way through an erase: `FileSealedStore` calls ``hook`` after each file an
/// erase removed (and after the key), and it throws at the ``step``th, so the erase stops there as a killed process
/// would; every test of an erase's order breaks it the same way.
public final class EraseKill: Sendable {
    /// The removal after which the erase stops; nil never stops it.
    public let step: Int?
    private let names = Mutex<[String]>([])

    /// A kill after the `step`th removal; nil for none.
    public init(afterStep step: Int?) {
        self.step = step
    }

    /// What the erase removed, in order, up to and with the last before the kill.
    public var removed: [String] { names.withLock { $0 } }

    /// Whether the kill happened: the erase reached its step.
    public var struck: Bool { step.map { removed.count >= $0 } ?? false }

    /// The hook to hand `FileSealedStore` (`afterRemoval`): counts each removal and throws at ``step``.
    public var hook: @Sendable (String) throws(SealError) -> Void {
        { [self] name throws(SealError) in
            let count = names.withLock { names in
                names.append(name)
                return names.count
            }
            if count == step { throw SealError(.io, "killed after removing \(name)") }
        }
    }
}
