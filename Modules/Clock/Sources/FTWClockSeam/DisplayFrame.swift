/// One frame of a 60 Hz display: the span within which things that happen reach a person as one.
///
/// Defined here, once, because two modules time by it: the session's idle slot waits one frame before it sends, so
/// reads asked in the same moment leave in order, and the history model gathers the tiles that land within one
/// frame into one change. Both take it as their default and refer to it.
public enum DisplayFrame {
    /// 1/60 s.
    public static let duration: Duration = .seconds(1) / 60
}
