import FTWClient
import FTWClockSeamTesting
import Foundation
import LiveHomeScreen
import Synchronization
import Testing

/// What a person sees in the terminal, frame by frame, without a terminal: the frame is a pure function of what the
/// observations gave and now.
@Suite struct FrameTests {
    private static func text(_ shown: Shown, at nowMs: Int64 = Sample.nowMs) -> String {
        Frame.lines(of: shown, nowMs: nowMs, field: Sample.grid).joined(separator: "\n")
    }

    @Test func aLiveFrameSaysEachValueInWordsAndUnitsWithItsAge() {
        let live = Sample.shown(readingsMs: Sample.nowMs - 1_000, connection: .live(sinceMs: Sample.nowMs - 60_000))
        let frame = Self.text(live)
        for line in [
            "live-home · 13:02:41 Europe/Stockholm",
            "  connection  live since 13:01:41",
            "  readings    live",
            "  solar       0.9 kW",
            "  grid        importing 2.7 kW from the grid",
            "  battery     11 %, charging 1.2 kW",
            "  house       uses 3.1 kW",
            "  car         not charging",
            "  mode        Self-consumption",
            "  price now   1.23 SEK/kWh until 14:00",
            "  next slot   13:15–13:30 charge the battery at 3.0 kW (cheap import)",
            "  chargers    Garage: car connected, not charging",
        ] {
            #expect(frame.contains(line), "no \"\(line)\" in:\n\(frame)")
        }
        #expect(frame.contains("1 s old"), "\(frame)")
        #expect(frame.contains("41 s old"), "the answers' age: \(frame)")
    }

    /// The box is gone: the readings' age keeps growing from the last beat, second by second, and the line says
    /// when the next try is, counting down.
    @Test func anOutageFrameShowsTheAgeMovingAndTheNextTry() {
        let lost = SessionError(.dialFailed, "127.0.0.1:8787 refused the connection")
        let wait = RetryWait(nextTryAtMs: Sample.nowMs + 2_500, attempt: 2, because: lost)
        let outage = Sample.shown(readingsMs: Sample.nowMs - 5_000, connection: .backingOff(wait))
        let now = Self.text(outage)
        let second = Self.text(outage, at: Sample.nowMs + 1_000)
        #expect(
            now.contains(
                "  connection  reconnecting — next try in 3 s (attempt 2: 127.0.0.1:8787 refused the connection)"
            ),
            "\(now)"
        )
        #expect(second.contains("reconnecting — next try in 2 s"), "\(second)")
        #expect(now.contains("  readings    no longer live, last confirmed 13:02:36"), "\(now)")
        let grid = { (frame: String) in frame.split(separator: "\n").first { $0.contains("importing") } ?? "" }
        #expect(grid(now).hasSuffix("5 s old"), "\(grid(now))")
        #expect(grid(second).hasSuffix("6 s old"), "the age moves while nothing arrives: \(grid(second))")
        #expect(now.contains("5 s since 13:02:36, and counting"), "the open outage: \(now)")
    }

    /// A reading from before the box restarted has no moment: its age is unknown, never "just now".
    @Test func aValueWithNoMomentSaysItsAgeIsUnknown() {
        var shown = Sample.shown(readingsMs: Sample.nowMs, connection: .greeted)
        shown.home?.readings[0].asOf = .unknown
        let battery = Self.text(shown).split(separator: "\n").first { $0.hasPrefix("  battery") } ?? ""
        #expect(battery.hasSuffix("age unknown"), "\(battery)")
    }

    @Test func theConnectionLineSaysEachStageAsAPersonIsToldIt() {
        let arrival = BoxArrival(movesAtMs: Sample.nowMs - 8_000, dueByMs: Sample.nowMs - 3_000)
        let cases: [(ConnectionStatus, String)] = [
            (.awaitingBox(arrival), "waiting for the box, due 13:02:33"),
            (.dialing(attempt: 3), "dialling the relay (attempt 3)"),
            (
                .stale(sinceMs: Sample.nowMs - 10_000, lastBeatMs: Sample.nowMs - 13_500),
                "stale since 13:02:31, last reading 13:02:27"
            ),
            (
                .offline(reason: SessionError(.boxOffline, "box offline"), advice: "check the box's power"),
                "offline: box offline; check the box's power"
            ),
        ]
        for (status, words) in cases {
            let frame = Self.text(Sample.shown(readingsMs: Sample.nowMs, connection: status))
            #expect(frame.contains("  connection  \(words)"), "\(status): \(frame)")
        }
    }

    /// The launch gap and every outage are missed time on the chart: a band, and RESUMED where live came back;
    /// while the connection is down, the band reaches now.
    @Test func theChartMarksEveryOutageAsMissedTime() throws {
        let down = Sample.shown(readingsMs: Sample.nowMs - 5_000, connection: .dialing(attempt: 2))
        let lines = Frame.lines(of: down, nowMs: Sample.nowMs, field: Sample.grid)
        let top = try #require(lines.first { $0.contains(" |") })
        let cells = Array(top.split(separator: "|", maxSplits: 1)[1])
        // 60 columns over 5 minutes, about 5 s each: the ring file's points end at column 9 (4 min 10 s ago), live
        // starts at column 19 (3 min 20 s ago), stops at column 39 (100 s ago) and resumes at column 47 (60 s ago);
        // the newest point is at column 58 (5 s ago), and column 59 is now.
        let band = { (range: ClosedRange<Int>) in range.allSatisfy { cells.indices.contains($0) && cells[$0] == "░" } }
        #expect(band(10...18), "the launch gap: \(String(cells))")
        #expect(band(40...46), "the outage: \(String(cells))")
        #expect(!cells[20...38].contains("░"), "no band while live: \(String(cells))")
        #expect(band(59...59), "the open outage reaches now: \(String(cells))")
        let marks = try #require(lines.first { $0.contains("RESUMED") })
        #expect(marks.components(separatedBy: "RESUMED").count == 3, "RESUMED after each: \(marks)")
        let missed = try #require(lines.first { $0.hasPrefix("  missed") })
        #expect(
            missed.contains(
                "50 s at launch (12:58:31–12:59:21); 40 s (13:01:01–13:01:41); 5 s since 13:02:36, and counting"
            ),
            "\(missed)"
        )
    }

    /// Nothing arrives, and the screen still redraws every second on its clock, each frame a second older.
    @Test func theScreenRedrawsEverySecondWhileNothingArrives() async {
        let clock = ManualClock(originMs: Sample.nowMs)
        let screen = Screen(field: Sample.grid)
        let shown = Sample.shown(readingsMs: Sample.nowMs - 5_000, connection: .dialing(attempt: 2))
        await screen.update { $0 = shown }
        let frames = Drawn()
        let draw: @Sendable ([String]) -> Void = { lines in
            frames.lines.withLock { $0.append(lines.first { $0.contains("importing") } ?? "") }
        }
        let drawing = Task {
            await screen.drawWhenReady(clock: clock, wallClock: clock, draw: draw)
            await screen.drawEverySecond(clock: clock, wallClock: clock, draw: draw)
        }
        for _ in 0..<3 {
            await clock.waitForSleepers(count: 1)
            clock.advance(by: .seconds(1))
        }
        await clock.waitForSleepers(count: 1)
        drawing.cancel()
        await drawing.value
        let ages = frames.lines.withLock { $0 }.map { $0.split(separator: " ").suffix(3).joined(separator: " ") }
        #expect(ages == ["5 s old", "6 s old", "7 s old", "8 s old"])
    }
}

/// The grid line of every frame a screen drew.
private final class Drawn: Sendable {
    let lines = Mutex<[String]>([])
}
