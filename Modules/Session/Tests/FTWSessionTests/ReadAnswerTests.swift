import FTWBoxProtocol
import FTWBus
import FTWClockSeam
import FTWSession
import FTWSessionInterface
import FTWSessionTestHarness
import Testing

/// How a read settles: the box's error reaches its caller typed, a busy passthrough is retried, silence ends a
/// read, and an answer out of shape is refused.
@Suite struct ReadAnswerTests {
    private static let unavailable = ErrorBody(
        code: .unavailable,
        retryable: true,
        retryAfterMs: 5_000,
        args: ["subsystem": .text("prices")]
    )
    private static let busy = ErrorBody(code: .unavailable, retryable: true, args: ["reason": .text("busy")])

    @Test func anErrorFrameReachesItsCallerTypedAndIsNotRetried() async throws {
        try await SessionWorld.run(setUp: { box in
            await box.configure {
                $0.script = { _, id in [.init(message: .error(ReadAnswerTests.unavailable), id: id)] }
            }
        }) { world in
            await world.comeToFront()
            let result = await world.read(Reads.prices, order: .rest, within: .seconds(30))
            guard case .failure(let error) = result else {
                Issue.record("the read succeeded: \(result)")
                return
            }
            #expect(error.code == .box)
            #expect(error.box?.code == .unavailable)
            #expect(error.box?.retryable == true)
            #expect(error.box?.retryAfterMs == 5_000)
            #expect(error.box?.args["subsystem"] == .text("prices"))
            #expect(error.isRetryable)
            #expect(await world.box.requests.count == 1)
        }
    }

    @Test func aBusyPassthroughIsAskedAgainAfter250And500Ms() async throws {
        let calls = Counter()
        try await SessionWorld.run(setUp: { box in
            await box.configure {
                $0.script = { message, id in
                    calls.next() <= 2
                        ? [.init(message: .error(ReadAnswerTests.busy), id: id)]
                        : ScriptedBox.defaultScript(message, id)
                }
            }
        }) { world in
            await world.comeToFront()
            let result = await world.read(Reads.chargers, order: .chargers, within: .seconds(5))
            #expect((try? result.get()) != nil)
            let sent = await world.box.requests
            #expect(sent.map(\.id) == [1, 2, 3])
            #expect(zip(sent.dropFirst(), sent).map { $0.atMs - $1.atMs } == [250, 500])
        }
    }

    @Test func aPassthroughStillBusyAfterThreeRetriesFailsTyped() async throws {
        try await SessionWorld.run(setUp: { box in
            await box.configure { $0.script = { _, id in [.init(message: .error(ReadAnswerTests.busy), id: id)] } }
        }) { world in
            await world.comeToFront()
            let result = await world.read(Reads.chargers, order: .chargers, within: .seconds(10))
            #expect(result.errorCode == .box)
            let sent = await world.box.requests
            #expect(sent.count == 4)
            #expect(zip(sent.dropFirst(), sent).map { $0.atMs - $1.atMs } == [250, 500, 1_000])
        }
    }

    @Test func aBusyRefusalOfAnythingButThePassthroughIsNotRetried() async throws {
        try await SessionWorld.run(setUp: { box in
            await box.configure { $0.script = { _, id in [.init(message: .error(ReadAnswerTests.busy), id: id)] } }
        }) { world in
            await world.comeToFront()
            let result = await world.read(Reads.plan, order: .plan, within: .seconds(10))
            #expect(result.errorCode == .box)
            #expect(await world.box.requests.count == 1)
        }
    }

    @Test func historyEndsAfterTwentySecondsOfSilenceNotTwentySecondsInAll() async throws {
        try await SessionWorld.run(setUp: { box in
            await box.configure { $0.script = { _, _ in [] } }
        }) { world in
            await world.comeToFront()
            let query = HistQuery(series: ["grid_w"], res: .fiveMinutes, fromMs: 0, toMs: 86_400_000)
            _ = try await world.withReads { reads in
                await reads.ask(Reads.history, order: .rest)
                await world.advance(by: .seconds(1))
                for tile in ScriptedBox.sampleTiles(for: query) {
                    await world.advance(by: .seconds(15))
                    await world.box.push(.histChunk(tile), id: 1)
                }
                await world.advance(by: .seconds(19))
                #expect(await reads.results.settled.isEmpty)
                await world.advance(by: .seconds(2))
                #expect(await reads.results.errorCodes(of: Reads.history) == [.timeout])
            }
        }
    }

    @Test(arguments: [(Reads.plan, ReadOrder.plan), (Reads.prices, ReadOrder.rest)])
    func planAndPricesEndAfterEightSeconds(read: ReadRequest, order: ReadOrder) async throws {
        try await SessionWorld.run(setUp: { box in
            await box.configure { $0.script = { _, _ in [] } }
        }) { world in
            await world.comeToFront()
            _ = try await world.withReads { reads in
                await reads.ask(read, order: order)
                await world.advance(by: .milliseconds(8_000))
                #expect(await reads.results.settled.isEmpty)
                await world.advance(by: .milliseconds(100))
                #expect(await reads.results.errorCodes(of: read) == [.timeout])
            }
        }
    }

    @Test func aTimedOutReadFreesTheSlotForTheNext() async throws {
        try await SessionWorld.run(setUp: { await $0.configure { $0.script = ScriptedBox.silent(on: .planGet) } }) {
            world in
            await world.comeToFront()
            let results = try await world.withReads { reads in
                await reads.ask(Reads.plan, order: .plan)
                await reads.ask(Reads.status, order: .status)
                await world.advance(by: .seconds(10))
            }
            #expect(await results.errorCodes(of: Reads.plan) == [.timeout])
            #expect(await results.errorCodes(of: Reads.status).isEmpty)
        }
    }

    @Test(arguments: [
        (
            [Message.apiHead(APIHead(status: 200, headers: [:])), .apiChunk(APIChunk(seq: 1, data: [1]))],
            SessionError.Code.malformedAnswer
        ),
        ([.apiChunk(APIChunk(seq: 0, data: [1])), .apiEnd(APIEnd(bytes: 1))], .malformedAnswer),
        ([.apiEnd(APIEnd(bytes: 0))], .malformedAnswer),
        (
            [.apiHead(APIHead(status: 200, headers: [:])), .apiEnd(APIEnd(bytes: 8_388_608, truncated: true))],
            .responseTooLarge
        ),
        ([.plan(ScriptedBox.samplePlan)], .malformedAnswer),
    ])
    func anAPIAnswerOutOfShapeFailsTyped(replies: [Message], expected: SessionError.Code) async throws {
        try await SessionWorld.run(setUp: { box in
            await box.configure { $0.script = { _, id in replies.map { .init(message: $0, id: id) } } }
        }) { world in
            await world.comeToFront()
            let result = await world.read(Reads.chargers, order: .chargers)
            #expect(result.errorCode == expected)
        }
    }

    /// The answers of a box that sends what it should not: a message of the read's own type on its id whose body has
    /// a field of the wrong type (what `box fail READ malformed` sends), and an error whose code is not text.
    static let unreadableAnswers: [(ReadRequest, Envelope)] = [
        (Reads.plan, Envelope(type: "plan", id: 1, body: ["rev": "malformed", "slots": "malformed"])),
        (Reads.prices, Envelope(type: "price", id: 1, body: ["zone": 46, "slots": "malformed"])),
        (Reads.history, Envelope(type: "hist.chunk", id: 1, body: ["tileId": 7, "data": "malformed"])),
        (Reads.chargers, Envelope(type: "api.head", id: 1, body: ["status": "malformed"])),
        (Reads.plan, Envelope(type: "error", id: 1, body: ["code": 7])),
    ]

    /// Issue 24: a malformed plan or price answer read as silence and failed 8 s later as "the box said nothing". It
    /// fails when it arrives, said as the box having sent what it should not, and the slot moves on to the next read.
    @Test(arguments: Self.unreadableAnswers)
    func anAnswerThatDoesNotReadFailsItsReadAtOnce(request: ReadRequest, answer: Envelope) async throws {
        try await SessionWorld.run(setUp: { await $0.configure { $0.script = ReadAnswerTests.silent(on: request) } }) {
            world in
            await world.comeToFront()
            let results = try await world.withReads { reads in
                await reads.ask(request, order: .person)
                await reads.ask(Reads.status, order: .status)
                await world.advance(by: .milliseconds(500))
                let frame = try Frame(lane: .bulk, payload: answer.encoded()).encoded()
                await world.box.injectFrame(frame)
                await world.advance(by: .milliseconds(100))
            }
            guard case .failure(let error) = await results.results(of: request).first else {
                Issue.record("the read did not fail when its answer came")
                return
            }
            #expect(error.code == .malformedAnswer)
            let said =
                "the box sent what it should not: a \(answer.type) on \(request.wireType) #1 that does not read ("
            #expect(error.message.hasPrefix(said), "\(error.message)")
            #expect(
                await results.results(of: Reads.status).first?.errorCode == nil,
                "the next read left and was answered"
            )
        }
    }

    /// An answer that does not read on another id (a read that already timed out, say) fails nothing: the read
    /// holding the slot is answered when its own answer comes.
    @Test func anUnreadableAnswerOnAnotherIdFailsNothing() async throws {
        try await SessionWorld.run(setUp: ScriptedBox.holdsAnswers) { world in
            await world.comeToFront()
            let results = try await world.withReads { reads in
                await reads.ask(Reads.plan, order: .plan)
                await world.advance(by: .milliseconds(500))
                let stray = Envelope(type: "plan", id: 9, body: ["rev": "malformed"])
                await world.box.injectFrame(try Frame(lane: .bulk, payload: stray.encoded()).encoded())
                await world.box.answerHeld()
                await world.advance(by: .milliseconds(100))
            }
            #expect(await results.results(of: Reads.plan).first == .success(.plan(ScriptedBox.samplePlan)))
        }
    }

    /// The box's default answers, and none to `request`.
    private static func silent(on request: ReadRequest) -> ScriptedBox.Script {
        { message, id in
            let silenced =
                switch (message, request) {
                case (.apiReq(let asked), .api(let unanswered)): asked == unanswered
                default: message.type == request.wireType
                }
            return silenced ? [] : ScriptedBox.defaultScript(message, id)
        }
    }

    @Test func anAPIAnswerInChunksIsReassembledInOrder() async throws {
        let body = (0..<30_000).map { UInt8(truncatingIfNeeded: $0) }
        try await SessionWorld.run(setUp: { box in
            await box.configure {
                $0.script = { _, id in
                    let chunks = stride(from: 0, to: body.count, by: APIChunk.chunkBytes).enumerated().map {
                        index,
                        start in
                        Message.apiChunk(
                            APIChunk(
                                seq: UInt32(index),
                                data: Array(body[start..<min(start + APIChunk.chunkBytes, body.count)])
                            )
                        )
                    }
                    let messages =
                        [Message.apiHead(APIHead(status: 403, headers: ["ETag": "x"]))] + chunks
                        + [.apiEnd(APIEnd(bytes: Int64(body.count)))]
                    return messages.map { .init(message: $0, id: id) }
                }
            }
        }) { world in
            await world.comeToFront()
            let result = await world.read(Reads.energy, order: .rest)
            #expect(result == .success(.api(APIResponse(status: 403, headers: ["ETag": "x"], body: body))))
        }
    }

    @Test func aRequestThatFitsNoFrameFailsWithoutBeingSent() async throws {
        let huge = ReadRequest.api(
            APIRequest(method: "PUT", path: "/api/notifications/rules", requestBody: Array(repeating: 7, count: 20_000))
        )
        try await SessionWorld.run { world in
            await world.comeToFront()
            let result = await world.read(huge, order: .person)
            #expect(result.errorCode == .requestTooLarge)
            #expect(await world.box.requests.isEmpty)
            #expect(await world.session.asks.isEmpty)
        }
    }
}
