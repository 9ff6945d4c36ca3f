import FTWClockSeam
import FTWClockSeamTesting
import FTWFixtures
import FTWWebSocket
import Testing

/// A real client against a real server over 127.0.0.1; every wait is on I/O, bounded by the suite's time limit.
@Suite(.timeLimit(.minutes(1)))
struct LoopbackTests {
    @Test(arguments: [1, 125, 126, 65_535, 65_536])
    func binaryMessagesOfEveryLengthEncodingEchoBack(length: Int) async throws {
        try await withServer(handler: echoHandler) { server in
            let client = try await connect(to: server)
            let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            try await client.send(.binary(payload))
            #expect(try await client.receive() == .binary(payload))
            await client.close()
        }
    }

    @Test(arguments: ["", "Hello", "Grüße aus dem Keller ⚡️", String(repeating: "ü", count: 30_000)])
    func textMessagesEchoBack(text: String) async throws {
        try await withServer(handler: echoHandler) { server in
            let client = try await connect(to: server)
            try await client.send(.text(text))
            #expect(try await client.receive() == .text(text))
            await client.close()
        }
    }

    @Test func messagesLongerThanTheOutgoingFrameSizeTravelAsFragments() async throws {
        try await withServer(handler: echoHandler) { server in
            let client = try await connect(to: server, limits: WebSocketLimits(maxOutgoingFrameSize: 100))
            let payload = (0..<1_000).map { UInt8(truncatingIfNeeded: $0) }
            try await client.send(.binary(payload))
            #expect(try await client.receive() == .binary(payload))
            await client.close()
        }
    }

    @Test func theHandlerSeesThePathAndHeaders() async throws {
        let seen = Mailbox<[String]>()
        let handler: @Sendable (WebSocketUpgradeRequest) async -> Void = { request in
            seen.post([request.path, request.headers["host"] ?? "", request.headers["sec-websocket-version"] ?? ""])
            await request.refuse(status: 404, reason: "Not Found")
        }
        try await withServer(handler: handler) { server in
            _ = await caught { () async throws(WebSocketError) in
                try await WebSocketClient.connect(
                    host: "127.0.0.1",
                    port: server.port,
                    path: "/r/493828/abc/app?x=1",
                    limits: WebSocketLimits(),
                    clock: ContinuousClock()
                )
            }
            #expect(await seen.next() == ["/r/493828/abc/app?x=1", "127.0.0.1:\(server.port)", "13"])
        }
    }

    @Test func aRefusedUpgradeReportsTheHTTPStatus() async throws {
        try await withServer(handler: { await $0.refuse(status: 404, reason: "Not Found") }) { server in
            let error = await caught { () async throws(WebSocketError) in try await connect(to: server) }
            #expect(error?.code == .handshakeFailed)
            #expect(error?.httpStatus == 404)
        }
    }

    @Test(arguments: [(4400, "text"), (4409, "493828"), (4410, "493829"), (4429, "streams")] as [(UInt16, String)])
    func relayCloseCodesReachTheClientWithTheirReason(code: UInt16, reason: String) async throws {
        let handler: @Sendable (WebSocketUpgradeRequest) async -> Void = { request in
            await (try? request.accept())?.close(code: code, reason: reason)
        }
        try await withServer(handler: handler) { server in
            let client = try await connect(to: server)
            let error = await caught { () async throws(WebSocketError) in try await client.receive() }
            #expect(error?.code == .closed)
            #expect(error?.closeCode == code)
            #expect(error?.closeReason == reason)
            #expect(client.closeCode == code)
            #expect(client.closeReason == reason)
        }
    }

    @Test func aClientCloseReachesTheServerAndIsEchoed() async throws {
        let seen = Mailbox<WebSocketError?>()
        let handler = reportFirstReceive(to: seen)
        try await withServer(handler: handler) { server in
            let client = try await connect(to: server)
            await client.close(code: 4000, reason: "bye")
            let serverSaw = await seen.next()
            #expect(serverSaw??.code == .closed)
            #expect(serverSaw??.closeCode == 4000)
            #expect(serverSaw??.closeReason == "bye")
            #expect(client.closeCode == 4000)
        }
    }

    @Test func pingsAreAnsweredInBothDirections() async throws {
        let serverPinged = Mailbox<Bool>()
        let handler: @Sendable (WebSocketUpgradeRequest) async -> Void = { request in
            guard let connection = try? request.accept() else { return }
            serverPinged.post((try? await connection.ping()) != nil)
            _ = try? await connection.receive()
        }
        try await withServer(handler: handler) { server in
            let client = try await connect(to: server)
            try await client.ping()
            try await client.ping()
            #expect(await serverPinged.next() == true)
            await client.close()
        }
    }

    @Test func anOversizeMessageIsRefusedWith1009() async throws {
        let serverSaw = Mailbox<WebSocketError?>()
        let handler = reportFirstReceive(to: serverSaw)
        try await withServer(limits: WebSocketLimits(maxMessageSize: 65_536), handler: handler) { server in
            let client = try await connect(to: server, limits: WebSocketLimits(maxOutgoingFrameSize: 100_000))
            try await client.send(.binary([UInt8](repeating: 7, count: 65_537)))
            let error = await caught { () async throws(WebSocketError) in try await client.receive() }
            #expect(error?.code == .closed)
            #expect(error?.closeCode == 1009)
            #expect(await serverSaw.next()??.code == .messageTooBig)
        }
    }

    @Test func abruptTCPLossSurfacesAs1006OnTheClient() async throws {
        let handler: @Sendable (WebSocketUpgradeRequest) async -> Void = { request in
            guard let connection = try? request.accept() else { return }
            _ = try? await connection.receive()
            connection.abort()
        }
        try await withServer(handler: handler) { server in
            let client = try await connect(to: server)
            try await client.send(.text("drop me"))
            let error = await caught { () async throws(WebSocketError) in try await client.receive() }
            #expect(error?.code == .connectionLost)
            #expect(error?.closeCode == 1006)
            await client.close()
            #expect(client.closeCode == 1006)
        }
    }

    @Test func abruptTCPLossSurfacesAs1006OnTheServer() async throws {
        let serverSaw = Mailbox<WebSocketError?>()
        let handler = reportFirstReceive(to: serverSaw)
        try await withServer(handler: handler) { server in
            let client = try await connect(to: server)
            client.abort()
            let error = await serverSaw.next() ?? nil
            #expect(error?.code == .connectionLost)
            #expect(error?.closeCode == 1006)
        }
    }

    @Test func messagesWaitForASlowReaderInOrder() async throws {
        let count = 300
        let handler: @Sendable (WebSocketUpgradeRequest) async -> Void = { request in
            guard let connection = try? request.accept() else { return }
            for index in 0..<count { try? await connection.send(.text("\(index)")) }
            await connection.close(code: 1000, reason: "done")
        }
        try await withServer(handler: handler) { server in
            let client = try await connect(to: server, limits: WebSocketLimits(maxBufferedMessages: 4))
            var received: [WebSocketMessage] = []
            while let message = try? await client.receive() { received.append(message) }
            #expect(received == (0..<count).map { .text("\($0)") })
            #expect(client.closeCode == 1000)
            #expect(client.closeReason == "done")
        }
    }

    @Test func aCancelledReceiveLosesNoMessage() async throws {
        try await withServer(handler: echoHandler) { server in
            let client = try await connect(to: server)
            let waiting = Task { await caught { () async throws(WebSocketError) in try await client.receive() } }
            waiting.cancel()
            #expect(await waiting.value?.code == .cancelled)
            try await client.send(.text("still here"))
            #expect(try await client.receive() == .text("still here"))
            await client.close()
        }
    }

    @Test func aReadingLoopCancelledWhileItWaitsEndsWithCancelledAndLosesNoMessage() async throws {
        try await withServer(handler: echoHandler) { server in
            let client = try await connect(to: server)
            let waiting = Task { () -> WebSocketError.Code? in
                await withTaskCancellationHandler {
                    do throws(WebSocketError) {
                        _ = try await client.receiveInLoop(isolation: nil)
                        return nil
                    } catch {
                        return error.code
                    }
                } onCancel: {
                    client.cancelReceivers()
                }
            }
            while client.waitingReceivers == 0 { await Task.yield() }
            waiting.cancel()
            // A bound, not a wait for an outcome: a receive the loop's cancellation missed would wait forever.
            let (outcomes, outcome) = AsyncStream.makeStream(of: WebSocketError.Code?.self)
            Task { outcome.yield(await waiting.value) }
            let watchdog = Task {
                guard (try? await ContinuousClock().sleep(for: .seconds(10))) != nil else { return }
                outcome.yield(nil)
            }
            var first = outcomes.makeAsyncIterator()
            #expect(await first.next() == .some(.cancelled))
            watchdog.cancel()
            try await client.send(.text("still here"))
            #expect(try await client.receive() == .text("still here"))
            await client.close()
        }
    }

    @Test func sendingAfterCloseFailsWithClosed() async throws {
        try await withServer(handler: echoHandler) { server in
            let client = try await connect(to: server)
            await client.close()
            let error = await caught { () async throws(WebSocketError) in try await client.send(.text("late")) }
            #expect(error?.code == .closed)
            #expect(error?.closeCode == 1000)
        }
    }

    @Test func closingTheServerClosesItsClientsWith1001() async throws {
        let server = try WebSocketServer(port: 0, limits: WebSocketLimits(), clock: ContinuousClock())
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run(handler: echoHandler) }
            let client = try await connect(to: server)
            try await client.send(.text("up"))
            #expect(try await client.receive() == .text("up"))
            await server.close()
            let error = await caught { () async throws(WebSocketError) in try await client.receive() }
            #expect(error?.closeCode == 1001)
            try await group.waitForAll()
        }
    }

    @Test func connectingToAClosedPortFailsWithConnectFailed() async throws {
        let error = try await LoopbackTCP.withRefusingPort { port in
            await caught { () async throws(WebSocketError) in try await connect(toPort: port) }
        }
        #expect(error?.code == .connectFailed)
    }

    @Test func theClientHandshakeTimesOutOnTheInjectedClock() async throws {
        let release = Mailbox<Void>()
        let handler: @Sendable (WebSocketUpgradeRequest) async -> Void = { _ in _ = await release.next() }
        try await withServer(handler: handler) { server in
            let clock = ManualClock(originMs: 0)
            let limits = WebSocketLimits(handshakeTimeout: .seconds(10))
            async let outcome = caught { () async throws(WebSocketError) in
                try await WebSocketClient.connect(
                    host: "127.0.0.1",
                    port: server.port,
                    path: "/",
                    limits: limits,
                    clock: clock
                )
            }
            await clock.waitForSleepers(count: 1)
            clock.advance(by: .seconds(10))
            #expect(await outcome?.code == .timeout)
            release.post(())
        }
    }
}
