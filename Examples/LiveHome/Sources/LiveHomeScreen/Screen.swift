import FTWClient

/// What the terminal shows: the latest of every observation, drawn as a ``Frame`` first from what the sealed files
/// gave, then once a second on the clock it is given, whether or not anything arrived, so every age moves and the
/// next try counts down while the box is away.
public actor Screen {
    private let field: TraceField
    private var shown = Shown()

    /// A screen charting `field`.
    public init(field: TraceField) {
        self.field = field
    }

    /// Takes what an observation gave.
    public func update(_ change: @Sendable (inout Shown) -> Void) {
        change(&shown)
    }

    /// The frame at `nowMs`.
    public func frame(nowMs: Int64) -> [String] {
        Frame.lines(of: shown, nowMs: nowMs, field: field)
    }

    /// Draws the first frame as soon as the home screen and the trace gave their first values (what the sealed
    /// files drew, before anything dials), checking every 10 ms of `clock`; returns once it is drawn, or when the
    /// task is cancelled.
    ///
    /// - Parameters:
    ///   - clock: What the screen waits on.
    ///   - wallClock: Now, for the frame.
    ///   - draw: Shows a frame (a terminal, or a test's list).
    public func drawWhenReady(
        clock: any Clock<Duration>,
        wallClock: any WallClock,
        draw: @Sendable ([String]) -> Void
    ) async {
        while !shown.isReady {
            guard (try? await clock.sleep(for: .milliseconds(10))) != nil else { return }
        }
        draw(frame(nowMs: wallClock.nowMs))
    }

    /// Draws a frame at every whole second of `wallClock`, sleeping on `clock` in between, until the task is
    /// cancelled: whether or not anything arrived, so every age grows and the next try counts down on screen.
    ///
    /// - Parameters:
    ///   - clock: What the screen sleeps on between frames.
    ///   - wallClock: Now, for each frame and for the next whole second.
    ///   - reread: The home screen as the client holds it now, read before each frame: a beat that changed no
    ///     reading still confirmed them all, and the home screen's observation gives a value only when one changed,
    ///     so without it a reading would look as old as its last change. Nil keeps the observed one.
    ///   - draw: Shows a frame.
    public func drawEverySecond(
        clock: any Clock<Duration>,
        wallClock: any WallClock,
        reread: (@Sendable () async -> HomeScreen)? = nil,
        draw: @Sendable ([String]) -> Void
    ) async {
        while (try? await clock.sleep(for: .milliseconds(1000 - wallClock.nowMs % 1000))) != nil {
            if let reread, shown.home != nil { shown.home = await reread() }
            draw(frame(nowMs: wallClock.nowMs))
        }
    }
}
