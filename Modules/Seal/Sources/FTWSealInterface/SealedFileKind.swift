/// What a sealed file holds; the first part of its name and a byte of its header.
///
/// A file renamed to another kind's name does not open, so a ring can never be read back as tiles.
public enum SealedFileKind: String, Sendable, Hashable, CaseIterable {
    /// `snapshot-<site>`: the last readings, so a cold start draws before anything connects.
    case snapshot
    /// `home-<site>`: the home's models.
    case home
    /// `ring-<site>`: the last five minutes of each live ring.
    case ring
    /// `tiles-<site>`: closed history tiles and the tile still filling.
    case tiles
    /// `<model>-<site>`: a file a model keeps for itself (`SealedStore.keepFile(name:site:contents:)`).
    case kept
}
