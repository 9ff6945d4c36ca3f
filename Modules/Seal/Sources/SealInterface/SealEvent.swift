/// What the sealed store did, on its bus: mostly for logs and tests, and for the one event a model may care about,
/// that its file was dropped and it starts empty.
public enum SealEvent: Sendable, Hashable {
    /// A file was sealed and renamed into place; `bytes` is its size on disk.
    case written(file: String, bytes: Int)
    /// A file was there but did not open, so its reader got nil and its model starts empty.
    ///
    /// The file is removed first (a bad file would fail the same way on every launch), except when the reason is
    /// `.keyUnavailable`: that is the key provider's failure, not the file's, and the file may open next time.
    case dropped(file: String, reason: SealError.Code)
    /// Every file of one site was removed (the home was removed from this phone).
    case erasedSite(SiteID)
    /// Every sealed file and the phone's key were removed (the phone was signed out or handed on).
    case erasedAll
}
