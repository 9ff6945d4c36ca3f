import FTWBoxProtocol
import FTWDemoBox
import Foundation
import Testing

@Suite struct APITests {
    private static func get(_ path: String, query: [String: String] = [:]) -> Message {
        .apiReq(APIRequest(method: "GET", path: path, query: query))
    }

    private static func call(
        _ world: BoxWorld,
        _ phone: TestPhone,
        _ request: Message
    ) async throws
        -> [TestPhone.Received]
    {
        let id = try await phone.ask(request)
        await world.advance(by: .milliseconds(100))
        return await phone.answers(to: id)
    }

    private static func head(_ answers: [TestPhone.Received]) -> APIHead? {
        guard case .apiHead(let head)? = answers.first?.message else { return nil }
        return head
    }

    @Test func theChargersAreAJSONArrayInHeadChunkAndEnd() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let answers = try await Self.call(world, phone, Self.get("/api/loadpoints"))
            #expect(answers.map(\.type) == ["api.head", "api.chunk", "api.end"])
            let head = try #require(Self.head(answers))
            #expect(head.status == 200 && head.headers == ["Content-Type": "application/json"])
            let chargers = try #require(Samples.json(answers) as? [[String: Any]])
            #expect(chargers.map { $0["id"] as? String } == ["garage"])
            #expect(chargers.first?["max_power_w"] as? Int == 11_000)
            guard case .apiEnd(let end)? = answers.last?.message else { return }
            #expect(!end.truncated && end.bytes == head.len)
            #expect(answers.allSatisfy { $0.frame.lane == .bulk })
        }
    }

    @Test(arguments: ["/api/status", "/api/planner/preferences", "/api/app-link/devices"])
    func aReadRouteAnswersJSON(path: String) async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let answers = try await Self.call(world, phone, Self.get(path))
            #expect(Self.head(answers)?.status == 200)
            #expect(Samples.json(answers) != nil)
        }
    }

    @Test func aLongAnswerComesInChunksOf12288BytesNumberedFromZero() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let answers = try await Self.call(world, phone, Self.get("/api/mpc/plan"))
            let chunks = answers.compactMap { frame -> APIChunk? in
                guard case .apiChunk(let chunk)? = frame.message else { return nil }
                return chunk
            }
            #expect(chunks.count == 2)
            #expect(chunks.map(\.seq) == Array(0..<UInt32(chunks.count)))
            #expect(chunks.dropLast().allSatisfy { $0.data.count == 12_288 })
            let plan = try #require(Samples.json(answers) as? [String: Any])
            #expect((plan["slots"] as? [Any])?.count == 96)
            #expect(answers.filter { $0.type == "api.chunk" }.dropLast().allSatisfy { $0.frame.bucket == 16384 })
        }
    }

    @Test func anAnswerPastMaxBytesIsCutAndMarkedTruncated() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let request = APIRequest(method: "GET", path: "/api/mpc/plan", maxBytes: 1000)
            let answers = try await Self.call(world, phone, .apiReq(request))
            guard case .apiEnd(let end)? = answers.last?.message else {
                Issue.record("no api.end")
                return
            }
            #expect(end.truncated && end.bytes == 1000)
            #expect(Self.head(answers)?.len == 15_304)
        }
    }

    @Test func headAnswersWithoutABody() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let answers = try await Self.call(world, phone, .apiReq(APIRequest(method: "HEAD", path: "/api/status")))
            #expect(answers.map(\.type) == ["api.head", "api.end"])
        }
    }

    @Test func theEnergyTotalsCoverTheDaysAskedFor() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let week = try await Self.call(world, phone, Self.get("/api/energy/daily", query: ["days": "7"]))
            let days = try #require(Samples.json(week) as? [[String: Any]])
            #expect(days.count == 7)
            #expect(days.allSatisfy { ($0["load_kwh"] as? Double ?? 0) > 0 })
            let wrong = try await Self.call(world, phone, Self.get("/api/energy/daily", query: ["days": "99"]))
            #expect(Self.head(wrong)?.status == 400)
        }
    }

    @Test func oneAPICallRunsAtATimeAndASecondFindsTheSlotBusy() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let first = try await phone.ask(Self.get("/api/loadpoints"))
            let second = try await phone.ask(Self.get("/api/status"))
            await world.advance(by: .milliseconds(100))
            #expect(await phone.answers(to: first).map(\.type) == ["api.head", "api.chunk", "api.end"])
            let busy = Samples.error(await phone.answers(to: second).first)
            #expect(busy?.code == .unavailable && busy?.retryable == true && busy?.args == ["reason": "busy"])
            let third = try await Self.call(world, phone, Self.get("/api/status"))
            #expect(Self.head(third)?.status == 200)
        }
    }

    @Test func thePlannerPreferencesAreAnUnknownPathOnABoxThatHasNone() async throws {
        var configuration = DemoBoxConfiguration()
        configuration.servesPlannerPrefs = false
        try await BoxWorld.run(configuration: configuration) { world in
            let phone = try await world.streamingPhone()
            let answers = try await Self.call(world, phone, Self.get("/api/planner/preferences"))
            // protocol.md §7.4 and §2.11: one `error` on lane 0 with the request's id, exactly this body.
            #expect(answers.map(\.type) == ["error"])
            #expect(answers.first?.frame.lane == .control)
            #expect(
                Samples.error(answers.first)
                    == ErrorBody(code: .unknownOp, retryable: false, args: ["t": "api.req", "field": "path"])
            )
            #expect(Samples.error(answers.first)?.retryAfterMs == nil)
        }
    }

    @Test(arguments: [
        ("GET", "/api/nothing-here", "path"), ("GET", "/status", "path"), ("GET", "/api/../etc", "path"),
        ("GET", "/api//loadpoints", "path"), ("GET", "/api/status?x=1", "path"), ("GET", "/api/status#x", "path"),
        ("GET", "/api/sta\ntus", "path"), ("TRACE", "/api/status", "method"), ("get", "/api/status", "method"),
        ("GET", "/api/" + String(repeating: "a", count: 1100), "path"), ("GET", "/api/mode", "path"),
    ])
    func aRequestThePassthroughDoesNotCarryIsAnUnknownOp(method: String, path: String, field: String) async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let answers = try await Self.call(world, phone, .apiReq(APIRequest(method: method, path: path)))
            #expect(answers.map(\.type) == ["error"])
            #expect(Samples.error(answers.first)?.args == ["t": "api.req", "field": .text(field)])
            #expect(answers.first?.frame.lane == .control)
        }
    }

    @Test func aBadQueryKeyIsAnUnknownOpOnTheQuery() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let answers = try await Self.call(world, phone, Self.get("/api/status", query: ["a\rb": "1"]))
            #expect(Samples.error(answers.first)?.args == ["t": "api.req", "field": "query"])
        }
    }

    @Test(arguments: [
        ("POST", "/api/mode", ErrorCode.useCommand, ["path": "/api/mode", "op": "site.mode.set"] as CBORMap),
        (
            "POST", "/api/loadpoints/garage/manual_hold", .useCommand,
            ["path": "/api/loadpoints/garage/manual_hold"] as CBORMap
        ),
        ("GET", "/api/config", .localOnly, ["path": "/api/config"] as CBORMap),
        ("POST", "/api/config", .wholeDocument, ["path": "/api/config"] as CBORMap),
    ])
    func routesTheSessionMustNotDriveAreRefusedByTier(
        method: String,
        path: String,
        code: ErrorCode,
        args: CBORMap
    )
        async throws
    {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let answers = try await Self.call(
                world,
                phone,
                .apiReq(APIRequest(method: method, path: path, stepUp: true))
            )
            let error = Samples.error(answers.first)
            #expect(error?.code == code && error?.args == args && error?.retryable == false)
        }
    }

    @Test func aConfigureRouteNeedsAStepUpThatOpensAFiveMinuteWindow() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let goal = Array(#"{"soc":0.8,"time_of_day_min_utc":420,"recurring":true,"days":[1,2,3]}"#.utf8)
            let put = { (stepUp: Bool) in
                Message.apiReq(
                    APIRequest(
                        method: "PUT",
                        path: "/api/loadpoints/garage/schedule",
                        requestBody: goal,
                        stepUp: stepUp
                    )
                )
            }
            let refused = try await Self.call(world, phone, put(false))
            #expect(Samples.error(refused.first)?.code == .needsStepUp)
            #expect(Samples.error(refused.first)?.args == ["tier": "configure"])
            #expect(Self.head(try await Self.call(world, phone, put(true)))?.status == 200)
            await world.advance(by: .seconds(240))
            #expect(Self.head(try await Self.call(world, phone, put(false)))?.status == 200)
            await world.advance(by: .seconds(60))
            #expect(Samples.error(try await Self.call(world, phone, put(false)).first)?.code == .needsStepUp)
            let chargers = try await Self.call(world, phone, Self.get("/api/loadpoints"))
            let schedule = (Samples.json(chargers) as? [[String: Any]])?.first?["schedule"] as? [String: Any]
            #expect(schedule?["time_of_day_min_utc"] as? Int == 420)
        }
    }

    @Test func aViewerMayNotConfigure() async throws {
        try await BoxWorld.run { world in
            _ = try await world.enrolledPhone()
            let viewer = try await world.streamingPhone(role: "viewer")
            let request = APIRequest(method: "POST", path: "/api/mpc/replan", stepUp: true)
            let answers = try await Self.call(world, viewer, .apiReq(request))
            #expect(Samples.error(answers.first)?.code == .scopeDenied)
            #expect(Samples.error(answers.first)?.args == ["needRole": "owner", "role": "viewer"])
        }
    }

    @Test func anInviteLinkEnrolsAViewerAndRevokingItEndsTheirSession() async throws {
        try await BoxWorld.run { world in
            let owner = try await world.streamingPhone()
            let body = Array(#"{"role":"viewer"}"#.utf8)
            let invite = APIRequest(method: "POST", path: "/api/app-link/pairing", requestBody: body, stepUp: true)
            let answers = try await Self.call(world, owner, .apiReq(invite))
            let link = try #require((Samples.json(answers) as? [String: Any])?["url"] as? String)
            let fragment = try #require(link.split(separator: "#").last).split(separator: ".")
            let code = try #require(EnrolmentTests.bytes(base64URL: String(fragment[2])))
            let viewer = try await world.phone()
            try await viewer.startHandshake(payload: code)
            await world.settle()
            #expect(await world.box.enrolledDevices.map(\.role) == ["owner", "viewer"])
            let id = try #require(await world.box.enrolledDevices.last?.deviceId)
            let revoke = APIRequest(method: "DELETE", path: "/api/app-link/devices/\(id)")
            #expect(Self.head(try await Self.call(world, owner, .apiReq(revoke)))?.status == 200)
            #expect(await viewer.received.last?.type == "session.terminate")
            #expect(await world.box.enrolledDevices.count == 1)
        }
    }

    @Test func theLastOwnerCannotBeRemoved() async throws {
        try await BoxWorld.run { world in
            let owner = try await world.streamingPhone()
            let id = try #require(await world.box.enrolledDevices.first?.deviceId)
            let revoke = APIRequest(method: "DELETE", path: "/api/app-link/devices/\(id)", stepUp: true)
            let answers = try await Self.call(world, owner, .apiReq(revoke))
            #expect(Self.head(answers)?.status == 409)
            #expect((Samples.json(answers) as? [String: Any])?["code"] as? String == "E_LAST_OWNER_PROTECTED")
        }
    }

    @Test func anAPIRequestWithoutAnIdIsIgnored() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            try await phone.send(Self.get("/api/status"))
            await world.advance(by: .milliseconds(100))
            #expect(await phone.received.filter { $0.frame.lane == .bulk }.isEmpty)
        }
    }
}
