import FTWHeadlessTooling
import Testing

/// cache.md §1 and §2 where a phone meets them first, played against the embedded demo box on the simulated clock
/// under the age-keyed policy: a read that fails, a return soon after, a person's pull beside the reads a return
/// makes, and a pull of a route the box does not carry.
@Suite struct AskEdgeScenarioTests {
    /// Found on a slow relay: the priming `hist.query` timed out and a second left 16 ms later, asked by the stream's
    /// return that had waited behind the priming read, with no view appearing, no redial and the same five minutes.
    @Test func aTimedOutPrimingIsAskedAgainOnlyWhenSomeoneStartsLookingAfterIt() async throws {
        let stays = try await AgeKeyedDay.stays(
            "timed-out-priming",
            """
            at 10:01:00 launch; inactive; active; box latency 10s
            wait 3m
            view battery; wait 1m
            """
        )
        let queries = try #require(stays.first).requests.filter { $0.hasPrefix("hist.query") }
        #expect(queries.count == 2, "the priming, then the node view that appeared after it failed: \(queries)")
    }

    /// Found by going to the background 1.9 s after launch, with the priming read still queued, and coming back
    /// 28 s later: the return asked everything but the history, for the whole stay (a late second ask in the
    /// background had started a minute's backoff cache.md does not have).
    @Test func aReturnSoonAfterAFailedPrimingPrimesTheHistory() async throws {
        let stays = try await AgeKeyedDay.stays(
            "return-after-failed-priming",
            """
            box latency 300ms
            at 10:01:00 launch; inactive; active; view now
            wait 1900ms; background; wait 28s
            inactive; active
            wait 10m
            background
            """
        )
        #expect(stays.count == 2)
        let first = try #require(stays.first).requests.filter { $0.hasPrefix("hist.query") }
        #expect(first.isEmpty, "the priming read was still queued when the app left")
        let queries = try #require(stays.last).requests.filter { $0.hasPrefix("hist.query") }
        #expect(queries.count == 2, "the return primes the window: the tile still filling, then the rest")
    }

    /// Found by pulling the plan as the app came back to the home screen: the box got `chargers, prefs, plan.get,
    /// plan.get`, the person's pull last and sent twice.
    @Test func aPersonsPullOnAReturnGoesFirstAndTheQueuedReadJoinsIt() async throws {
        let stays = try await AgeKeyedDay.stays(
            "pull-on-return",
            """
            at 10:01:00 launch; inactive; active; view now
            wait 2m; background; wait 20m
            inactive; active; refresh plan
            wait 30s
            background
            """
        )
        #expect(
            stays.last?.requests == [
                "plan.get plan", "api.req GET /api/loadpoints", "api.req GET /api/planner/preferences",
            ]
        )
    }

    /// A box whose build does not carry the planner-preferences route refused it once; a pull to refresh the home
    /// screen answers from that refusal and sends nothing for it, while the other models' pulls still go.
    @Test func aPullOfARouteTheBoxRefusedForThisBuildSendsNothing() async throws {
        let stays = try await AgeKeyedDay.stays(
            "pull-of-refused-route",
            """
            prefs off
            at 10:01:00 launch; inactive; active; view now
            wait 2m; refresh now
            wait 30s
            background
            """
        )
        let requests = try #require(stays.first).requests
        #expect(requests.filter { $0.contains("/api/planner/preferences") }.count == 1, "\(requests)")
        #expect(requests.filter { $0.contains("/api/loadpoints") }.count == 2, "the chargers' pull still goes")
    }
}
