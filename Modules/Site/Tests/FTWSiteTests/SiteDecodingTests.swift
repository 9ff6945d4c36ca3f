import FTWBus
import FTWCache
import FTWClockSeam
import FTWClockSeamTesting
import FTWSessionInterface
import FTWSessionTestSupport
import FTWSite
import Foundation
import Testing

/// What the site's reads keep of the box's JSON, and what they refuse.
@Suite struct SiteDecodingTests {
    private func response(_ body: String, status: Int = 200) -> APIResponse {
        APIResponse(status: status, body: Array(body.utf8))
    }

    @Test func chargersKeepIdNamePowerAndWhetherACarIsConnectedAndCharging() throws {
        let list = try ChargerList(response: response(SiteWorld.chargersBody))
        #expect(
            list.chargers == [
                Charger(id: "garage", name: "easee-1", powerW: 7360, connected: true, charging: true),
                Charger(id: "street", name: "zap", powerW: 0, connected: false, charging: false),
            ]
        )
    }

    @Test func chargersReadOtherShapesTheBoxMaySend() throws {
        let body = #"[{"id": 7, "name": "Carport", "connected": true, "charging": false, "power_w": null}]"#
        let list = try ChargerList(response: response(body))
        #expect(list.chargers == [Charger(id: "7", name: "Carport", powerW: nil, connected: true, charging: false)])
    }

    @Test(arguments: [
        ("not json", SiteError.Code.undecodable), ("\"a string\"", .undecodable), (#"{"loadpoints": 3}"#, .undecodable),
        (#"{"loadpoints": [3]}"#, .undecodable), (#"{"loadpoints": [{"name": "x"}]}"#, .undecodable),
        (#"{"loadpoints": [{"id": 1.5}]}"#, .undecodable),
        (#"{"loadpoints": [{"id": "a", "current_power_w": "7 kW"}]}"#, .undecodable),
        (#"{"loadpoints": [{"id": "a", "current_power_w": 1e300}]}"#, .undecodable),
        (#"{"loadpoints": [{"id": "a", "plugged_in": "yes"}]}"#, .undecodable),
        (#"{"loadpoints": [{"id": "a", "plugged_in": 1}]}"#, .undecodable),
    ])
    func chargerBodiesThatDoNotDecodeAreATypedFailure(body: String, code: SiteError.Code) {
        let error = #expect(throws: SiteError.self) { try ChargerList(response: response(body)) }
        #expect(error?.code == code)
    }

    @Test func aBodyThatIsNotJSONKeepsTheDecodersFailureAsTheCause() {
        let error = #expect(throws: SiteError.self) { try ChargerList(response: response("not json")) }
        #expect(error?.cause is DecodingError)
    }

    @Test func aStatusOtherThan2xxIsATypedFailure() {
        let error = #expect(throws: SiteError.self) {
            try SiteStatus(response: response(#"{"error": "boom"}"#, status: 500))
        }
        #expect(error?.code == .unexpectedStatus)
    }

    @Test func prefsAndStatusKeepAFewTypedFieldsAndTheRawJSON() throws {
        let prefs = try PlannerPrefs(response: response(SiteWorld.prefsBody))
        #expect(prefs.mode == "cheapest")
        #expect(prefs.reserveSocPct == 20)
        #expect(prefs.json == SiteWorld.prefsBody)
        let status = try SiteStatus(response: response(#"{"version": 3, "mode": "peak"}"#))
        #expect(status.version == nil, "a field of another kind reads as absent, the answer still stands")
        #expect(status.mode == "peak")
        let error = #expect(throws: SiteError.self) { try PlannerPrefs(response: response("[1, 2]")) }
        #expect(error?.code == .undecodable)
    }

    @Test func aBodyThatDoesNotDecodeIsNeverRecordedAndTheLastAnswerStays() async {
        let world = SiteWorld()
        defer { world.removeFolder() }
        let chargers = world.chargers()
        await world.with([chargers]) { simulation in
            chargers.send(.viewAppeared)
            await world.streamReturns()
            world.answers.set(ChargerList.kind.path, body: "<html>gateway</html>")
            chargers.send(.refresh)
            await simulation.settle()
        }
        #expect(await world.paths().count == 2)
        #expect(await chargers.value?.chargers.first?.id == "garage")
        #expect((await chargers.failure as? SiteError)?.code == .undecodable, "the model's own error, not a string")
        #expect(await chargers.stored?.askedAtMs == SiteWorld.tenOhOne)
    }
}
