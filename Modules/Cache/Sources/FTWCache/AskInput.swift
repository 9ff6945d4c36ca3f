/// What happened, as an ``AskDecision`` takes it: a person looking or pulling to refresh, the stream, the box, and how
/// an ask handed out settled.
public enum AskInput: Sendable, Hashable {
    /// A view that shows the answer appeared: someone starts looking.
    case viewAppeared
    /// A view that showed the answer went away.
    case viewGone
    /// Someone wants the answer once without staying (the grid widget): asked only when it does not stand, and on
    /// the stream's return when no stream runs now.
    case wantsOnce
    /// A pull to refresh: a person's ask, which always sends.
    case refresh
    /// The stream came back on this connection: someone starts looking again.
    case streamReturned(connection: Int)
    /// A live frame on this connection: the beat on which an open view checks its name.
    case liveFrame(connection: Int)
    /// The stream is gone (lost, or the session ended).
    case streamLost
    /// The box said hello with its build (`hello_ok.box.build`).
    case hello(build: String)
    /// The ask handed out was answered and its answer recorded; it was asked at `askedAtMs` (wall clock, Unix ms).
    case answered(askedAtMs: Int64)
    /// The ask handed out failed; nothing was recorded.
    case failed(AskFailure.Verdict)
    /// The box sent an answer unasked (a pushed plan): it is kept under the name wanted now, or the one held.
    case adopted
    /// The sealed answer and verdict were read back at launch.
    case restored(AskDecision.Held?, lackingOnBuild: String?)
}
