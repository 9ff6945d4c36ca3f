import FTWClient
import FTWHeadlessTooling
import Foundation
import Testing

/// The hour's turn on the production relay's heartbeat (protocol.md §8.3, issue 34): the relay moves an old room on the
/// first beat of its 15 s heartbeat at or after the room's offset, up to 15 s late, and the box rejoins 2.5 s later.
/// A return a second after the hour, seven hours running, on the simulated clock: each joins once, waits in the new
/// room with no close, and goes live the moment the box comes, whatever the beat's phase. Serialized: each phase is
/// seven hours of simulation, and three at once hold both of a 2-core machine's pool threads for most of a minute,
/// starving the wall-clock loopback tests that run beside them (their 2.5 s watchdog fired).
@Suite(.serialized) struct HourTurnBeatTests {
    /// A launch at 09:50, then a return one second after each hour from 10:00 to 16:00, six minutes in front each:
    /// past every hour's turn (the spread is five minutes, the beat 15 s, the box's rejoin 2.5 s).
    private static func scenario(beatPhaseSeconds: Int) throws -> Scenario {
        var text = """
            date 2026-12-02
            timezone Europe/Stockholm
            relay beat 15s at 10:00:\(beatPhaseSeconds < 10 ? "0" : "")\(beatPhaseSeconds)
            at 09:50:00 launch; inactive; active; view now
            wait 1m; background

            """
        for hour in 10...16 {
            text += "at \(hour):00:01 inactive; active; wait 6m\nbackground\n"
        }
        return try ScenarioParser.parse(text)
    }

    @Test(arguments: [0, 7, 14])
    func returnsASecondAfterSevenHoursEachGoLiveWithOneDialAndNoCloseBeforeTheBoxComes(
        beatPhaseSeconds: Int
    ) async throws {
        let scenario = try Self.scenario(beatPhaseSeconds: beatPhaseSeconds)
        let (report, _) = try await ScenarioRunner(scenario: scenario, name: "hour-turn-beat").run()
        #expect(report.errors.isEmpty, "\(report.errors)")
        let returns = Array(report.stays.dropFirst())
        #expect(returns.count == 7)
        let phaseMs = Int64(beatPhaseSeconds) * 1_000
        var latestBeats: [Int64] = []
        for stay in returns {
            let movesAtMs = try #require(stay.boxMovesAtMs, "stay \(stay.number) waited for its box")
            let hourStartMs = stay.beganAtMs - 1_000
            // The hour's start is a multiple of 15 s, so the beats fall `phaseMs` past each quarter minute of it.
            let beatMs = hourStartMs + phaseMs + (movesAtMs - hourStartMs - phaseMs + 14_999) / 15_000 * 15_000
            latestBeats.append(beatMs - movesAtMs)
            let boxJoinsAtMs = beatMs + 2_500
            #expect(stay.boxDueByMs == movesAtMs + 20_000)
            let live = try #require(stay.timeline.firstIndex { $0.kind == .live }, "stay \(stay.number) went live")
            let upToLive = stay.timeline[...live]
            #expect(upToLive.map(\.kind) == [.dial, .awaitingBox, .handshake, .helloOK, .live], "stay \(stay.number)")
            #expect(stay.timeline.filter { $0.kind == .dial }.count == 1, "one dial in stay \(stay.number)")
            #expect(upToLive.first { $0.kind == .handshake }?.atMs == boxJoinsAtMs, "the handshake on the box's ready")
            #expect(stay.timeline[live].atMs - boxJoinsAtMs < 1_000, "live a round trip after the box came")
        }
        #expect(latestBeats.allSatisfy { (0..<15_000).contains($0) })
        #expect(latestBeats.contains { $0 > 5_000 }, "some hour's beat falls more than the box's jitter after it")
    }

    /// The shipped scenario: the beat 14 s after the offset (11:02:33.913), the box in at 11:02:50.413, live 600 ms
    /// later (the ready, the handshake and hello over a relay 120 ms away), with one dial and no close before.
    @Test func theShippedLateBeatScenarioJoinsOnceAndGoesLiveARoundTripAfterTheBox() async throws {
        let (report, _) = try await ScenarioRunner(
            scenario: BuiltInScenario.load("hour-turn-late-beat"),
            name: "hour-turn-late-beat"
        ).run()
        let stay = try #require(report.stays.last)
        let movesAtMs = try #require(stay.boxMovesAtMs)
        let boxJoinsAtMs = movesAtMs + 14_000 + 2_500
        #expect(stay.timeline.map(\.kind) == [.dial, .awaitingBox, .handshake, .helloOK, .live, .close])
        #expect(stay.timeline.first { $0.kind == .handshake }?.atMs == boxJoinsAtMs + 120)
        #expect(stay.timeline.first { $0.kind == .live }?.atMs == boxJoinsAtMs + 600)
    }
}
