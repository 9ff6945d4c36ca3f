import FTWSocketLoop
import FTWWebSocket
import Synchronization
import Testing

/// A reader whose isolation is the loop's thread takes each message inside the loop's read of the socket: a plain
/// call, no task resumed, so a message (another phone's frame too) costs the loop no job.
@Suite(.timeLimit(.minutes(1)))
struct InlineReaderTests {
    /// Records each message it takes, and whether it took it on the loop and inside a task.
    private final class Taker: InlineMessageReader {
        private struct Seen {
            var messages: [WebSocketMessage] = []
            var offLoop = 0
            var inATask = 0
        }

        private let loop: EventLoop
        private let seen = Mutex(Seen())
        private let posted: AsyncStream<Int>.Continuation
        let counts: AsyncStream<Int>

        init(loop: EventLoop) {
            self.loop = loop
            (counts, posted) = AsyncStream.makeStream(of: Int.self)
        }

        func take(_ message: WebSocketMessage) {
            let onLoop = loop.inEventLoop
            let inATask = withUnsafeCurrentTask { $0 != nil }
            let count = seen.withLock { seen in
                seen.messages.append(message)
                if !onLoop { seen.offLoop += 1 }
                if inATask { seen.inATask += 1 }
                return seen.messages.count
            }
            posted.yield(count)
        }

        var messages: [WebSocketMessage] { seen.withLock(\.messages) }
        var offLoop: Int { seen.withLock(\.offLoop) }
        var inATask: Int { seen.withLock(\.inATask) }
    }

    /// An actor on the loop's serial executor: the reader the inline receive is for.
    private actor OnLoop {
        nonisolated let unownedExecutor: UnownedSerialExecutor

        init(_ loop: EventLoop) { unownedExecutor = loop.asUnownedSerialExecutor() }

        func read(_ connection: WebSocketConnection, into taker: Taker) async -> WebSocketError.Code? {
            do throws(WebSocketError) {
                _ = try await connection.receiveInline(isolation: self, taker)
                return nil
            } catch {
                return error.code
            }
        }
    }

    @Test func eachMessageIsTakenInsideTheLoopsReadWithNoTask() async throws {
        let loop = try EventLoop(name: "test.inline")
        defer { loop.shutdown() }
        try await withServer(handler: echoHandler) { server in
            let client = try await WebSocketClient.connect(
                host: "127.0.0.1",
                port: server.port,
                path: "/echo",
                limits: WebSocketLimits(),
                clock: ContinuousClock(),
                loop: loop
            )
            #expect(client.runsReads(on: loop))
            let taker = Taker(loop: loop)
            let reading = Task { await OnLoop(loop).read(client, into: taker) }
            while client.waitingReceivers == 0 { await Task.yield() }
            for index in 0..<3 { try await client.send(.text("frame \(index)")) }
            for await count in taker.counts where count == 3 { break }
            #expect(taker.messages == [.text("frame 0"), .text("frame 1"), .text("frame 2")])
            #expect(taker.offLoop == 0, "\(taker.offLoop) messages taken off the loop")
            #expect(taker.inATask == 0, "\(taker.inATask) messages taken inside a task, not the loop's read")
            client.cancelReceivers()
            #expect(await reading.value == .cancelled)
            await client.close()
        }
    }
}
