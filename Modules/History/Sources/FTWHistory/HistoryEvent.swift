public import FTWCache
public import FTWSealInterface
public import FTWSessionInterface

/// What the history model tells its observers, on its bus.
public enum HistoryEvent: Sendable, Hashable {
    /// The window a chart draws changed: tiles landed (gathered, one change per display frame), the sealed window
    /// was restored, or gaps arrived.
    case changed(HistoryWindow)
    /// A tile from the box was dropped and not drawn (its etag does not match its data, or it was not planned).
    case tileRefused(HistoryError)
    /// The sealed tiles file opened but could not be read; the model starts empty.
    case fileRefused(HistoryError)
    /// A load failed; nothing was recorded as answered, and the next live frame or return asks again.
    case failed(name: AskName, error: SessionError)
    /// The window could not be sealed; the previous file, if any, stays.
    case notKept(SealError)
}
