import FTWHeadlessTooling
import Foundation
import Testing

/// `at HH:MM:SS` is the time on the clock face in the scenario's zone, also on the days the clocks change, as the
/// stay lines of `ftw-headless run` print it. Europe/Stockholm springs forward at 02:00 on 2026-03-29 and falls
/// back at 03:00 on 2026-10-25.
@Suite("Local time", .timeLimit(.minutes(1)))
struct LocalTimeTests {
    @Test(
        "a time after the change is that time",
        arguments: ["2026-03-29", "2026-10-25"]
    )
    func afterTheChange(date: String) async throws {
        let run = try await Self.run("date \(date)\nat 14:00:00 launch; inactive; active; wait 10s; background")
        #expect(run.output.contains("stay 1  launch  14:00:00"), "\(run.output)")
        #expect(run.status == 0)
    }

    /// The spring day skips 02:00–03:00: 02:30 is the first instant after the gap, ten minutes after 01:50. The
    /// autumn day repeats 02:00–03:00: 02:30 is its first occurrence, an hour after 01:30 (not two).
    @Test(
        "a time in the skipped hour is the end of the gap; in the repeated hour, its first occurrence",
        arguments: [
            ("2026-03-29", "01:50:00", "stay 2  return  03:00:00", "10m10s simulated"),
            ("2026-10-25", "01:30:00", "stay 2  return  02:30:00", "60m10s simulated"),
        ]
    )
    func theChangingHour(date: String, start: String, secondStay: String, span: String) async throws {
        let run = try await Self.run(
            """
            date \(date)
            at \(start) launch; inactive; active; wait 10s; background
            at 02:30:00 inactive; active; wait 10s; background
            """
        )
        #expect(run.output.contains(secondStay), "\(run.output)")
        #expect(run.output.contains(span), "\(run.output)")
    }

    @Test("the calendar day resolves the clock face in the zone it is given")
    func calendarDay() throws {
        let zone = try #require(TimeZone(identifier: "Europe/Stockholm"))
        let spring = try #require(CalendarDay("2026-03-29"))
        let autumn = try #require(CalendarDay("2026-10-25"))
        let hour: Int64 = 3_600_000
        #expect(spring.instantMs(atTimeOfDay: 14 * hour, in: zone) == 1_774_785_600_000)  // 12:00 UTC
        #expect(spring.instantMs(atTimeOfDay: 2 * hour + hour / 2, in: zone) == 1_774_746_000_000)  // 01:00 UTC
        #expect(autumn.instantMs(atTimeOfDay: 2 * hour + hour / 2, in: zone) == 1_792_888_200_000)  // 00:30 UTC
        #expect(autumn.instantMs(atTimeOfDay: 14 * hour, in: zone) == 1_792_933_200_000)  // 13:00 UTC
    }

    private static func run(_ text: String) async throws -> HeadlessProcess {
        let scratch = try ScratchFolder()
        let path = try scratch.file("day.scenario", "timezone Europe/Stockholm\n" + text)
        return try await HeadlessProcess.run(["run", path])
    }
}
