import FTWBoxProtocol
import FTWDemoBox
import FTWSessionInterface
import Foundation
import Testing

/// `box fail READ KIND [once|always]`: one read fails as asked, the request is still listed, and nothing else about
/// the box changes.
@Suite struct ReadFaultTests {
    private static let requests: [BoxRead: Message] = [
        .chargers: .apiReq(APIRequest(method: "GET", path: "/api/loadpoints")),
        .prefs: .apiReq(APIRequest(method: "GET", path: "/api/planner/preferences")),
        .status: .apiReq(APIRequest(method: "GET", path: "/api/status")),
        .plan: .planGet,
        .prices: .priceGet(PriceGet(fromMs: BoxWorld.origin, toMs: BoxWorld.origin + 3_600_000)),
        .history: .histQuery(
            HistQuery(series: ["grid_w"], res: .fiveMinutes, fromMs: BoxWorld.origin - 3_600_000, toMs: BoxWorld.origin)
        ),
    ]

    /// The reads a model asks; hello has tests of its own.
    static let modelReads: [BoxRead] = BoxRead.allCases.filter { $0 != .hello }

    /// What the box answered the read `read` with under `kind`, once, and then to the same read again.
    private func answers(
        _ read: BoxRead,
        _ kind: ReadFault.Kind,
        always: Bool = false
    ) async throws -> (
        first: [TestPhone.Received], second: [TestPhone.Received], listed: Int
    ) {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            let request = try #require(Self.requests[read])
            await world.box.failRead(ReadFault(read: read, kind: kind, always: always))
            let first = try await phone.ask(request)
            await world.advance(by: .seconds(1))
            let second = try await phone.ask(request)
            await world.advance(by: .seconds(1))
            return (
                await phone.answers(to: first), await phone.answers(to: second), await world.box.receivedRequests.count
            )
        }
    }

    @Test(arguments: Self.modelReads)
    func aTimeoutIsSilenceOnceAndTheNextReadIsAnswered(read: BoxRead) async throws {
        let (first, second, listed) = try await answers(read, .timeout)
        #expect(first.isEmpty)
        #expect(!second.isEmpty && second.allSatisfy { $0.type != ErrorBody.wireType })
        #expect(listed == 2, "a failed read is still a request the box received")
    }

    @Test(arguments: Self.modelReads)
    func busyIsTheSlotsRetryableRefusal(read: BoxRead) async throws {
        let (first, _, _) = try await answers(read, .busy)
        let error = try #require(Samples.error(first.first))
        #expect(error.code == .unavailable && error.retryable && error.args["reason"] == "busy")
    }

    @Test(arguments: Self.modelReads)
    func refusedIsUnknownOp(read: BoxRead) async throws {
        let (first, second, _) = try await answers(read, .refused, always: true)
        for answer in [first, second] {
            let error = try #require(Samples.error(answer.first))
            #expect(error.code == .unknownOp && !error.retryable)
        }
    }

    /// A malformed answer comes on the request's id and cannot be read: an API body that is not JSON, a typed
    /// answer whose body does not decode.
    @Test(arguments: Self.modelReads)
    func aMalformedAnswerArrivesOnTheIdAndDoesNotRead(read: BoxRead) async throws {
        let (first, second, _) = try await answers(read, .malformed)
        #expect(!first.isEmpty)
        switch read {
        case .chargers, .prefs, .status:
            #expect(first.map(\.type) == ["api.head", "api.chunk", "api.end"])
            guard case .apiChunk(let chunk)? = first[1].message else {
                Issue.record("no chunk")
                return
            }
            #expect((try? JSONSerialization.jsonObject(with: Data(chunk.data))) == nil)
        case .plan, .prices, .history, .hello:
            #expect(first.count == 1 && first[0].message == nil, "the envelope reads, its body does not")
        }
        #expect(second.allSatisfy { $0.message != nil }, "only once")
    }

    /// What a phone that just finished its handshake hears to its hello, under a fault of `kind` on hello.
    private func helloAnswers(_ kind: ReadFault.Kind) async throws -> [TestPhone.Received] {
        try await BoxWorld.run { world in
            await world.box.failRead(ReadFault(read: .hello, kind: kind, always: false))
            let phone = try await world.enrolledPhone()
            try await phone.send(Samples.hello())
            await world.advance(by: .seconds(2))
            return await phone.received
        }
    }

    @Test func aHelloFaultIsSilenceABootingBoxAMalformedHelloOKOrAnUnknownOp() async throws {
        #expect(try await helloAnswers(.timeout).isEmpty)
        let booting = try await helloAnswers(.busy)
        guard case .helloOK(let hello)? = booting.first?.message else {
            Issue.record("no hello_ok: \(booting.map(\.type))")
            return
        }
        #expect(hello.mode == "booting" && !hello.subscribed && booting.count == 1, "a booting box streams nothing")
        let malformed = try await helloAnswers(.malformed)
        #expect(malformed.map(\.type) == ["hello_ok"] && malformed.first?.message == nil)
        let refused = try await helloAnswers(.refused)
        #expect(refused.first?.envelope.id == nil && Samples.error(refused.first)?.code == .unknownOp)
    }

    @Test func aFaultLiftedIsAnsweredAgain() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            await world.box.failRead(ReadFault(read: .plan, kind: .refused, always: true))
            await world.box.stopFailing(.plan)
            let id = try await phone.ask(.planGet)
            await world.settle()
            #expect(await phone.answers(to: id).map(\.type) == ["plan"])
        }
    }

    @Test func aFaultOnOneReadLeavesTheOthers() async throws {
        try await BoxWorld.run { world in
            let phone = try await world.streamingPhone()
            await world.box.failRead(ReadFault(read: .chargers, kind: .timeout, always: true))
            let status = try await phone.ask(.apiReq(APIRequest(method: "GET", path: "/api/status")))
            let plan = try await phone.ask(.planGet)
            await world.advance(by: .seconds(1))
            #expect(await phone.answers(to: status).map(\.type) == ["api.head", "api.chunk", "api.end"])
            #expect(await phone.answers(to: plan).map(\.type) == ["plan"])
        }
    }
}
