/// What a box route may be used for over the session (§7.3), declared beside each route.
enum APITier: Sendable, Hashable {
    /// Served to any enrolled caller.
    case read
    /// An owner with a fresh step-up only.
    case configure
    /// Moves energy: use a `cmd` instead.
    case actuate
    /// Served only on the box's own page.
    case local
}
