public import FTWBus
import FTWClockSeam
import FTWSessionInterface
import FTWWebSocket
import Foundation
import Synchronization

/// The demo box's relay room over WebSocket on 127.0.0.1: phones join at `/r/<epoch>/<handle>/app` exactly as they
/// join the real relay, and meet the same room the in-process dialer joins (the box's own uplink is in-process).
///
/// The relay's rules are the box's `RelayModel`, the same the in-process room follows: 30 joins per address in a
/// fixed 60 s window (the address is the first of `X-Forwarded-For`, as Caddy sets it, else loopback), else 4429
/// `slow down`; a path that is not an app join, or a handle that is not this box's room, closes 4400; a wrong epoch
/// closes 4409 with the right one; a fifth stream closes 4429 `streams`; the epoch turning over closes 4410 with the
/// new one; a restart closes every socket with 1001. This type only moves bytes: text from a phone, or a message
/// over 65536 bytes, closes 4400. `ready` and `gone` arrive as text.
///
/// ## Concurrency
/// Each connection runs two child tasks of ``run()``: one hands the room's events to the socket, one hands the
/// phone's messages to the box; when either ends, the other is cancelled and the stream leaves the room.
public final class DemoRelayServer: Sendable {
    /// Larger than the relay's maximum, so an oversize message reaches the relay's own check and gets its 4400.
    private static let limits = WebSocketLimits(maxMessageSize: 1 << 20, maxFrameSize: 1 << 20)

    private let box: SimulatedBox
    private let server: WebSocketServer
    private let log: any LogSink
    /// Each phone's socket by its stream while it is in the room, and the close code of the last streams that left.
    private let sockets = Mutex<(open: [Int: WebSocketConnection], left: [Int: UInt16])>(([:], [:]))
    /// How many streams' close codes are kept once they left: a long-running relay keeps no more.
    private static let keptDepartures = 64

    /// The bound port (the ephemeral one when 0 was asked for).
    public var port: Int { server.port }

    /// Binds 127.0.0.1:`port` for `box`'s room.
    ///
    /// - Parameters:
    ///   - box: The box whose room phones join.
    ///   - port: The port, or 0 for an ephemeral one.
    ///   - clock: The clock the WebSocket handshake and closing timeouts run on.
    ///   - tls: The certificate to serve `wss://` with (as the real relay does); nil serves plain `ws://`.
    ///   - log: Where each stream's end goes (category `relay`): how the phone left, with the close code its socket
    ///     ended with (1000 for a clean close, 1006 for a dropped socket), as the real relay logs it.
    /// - Throws: ``DemoBoxError`` `.listen` when the port cannot be bound or the certificate cannot be served.
    public init(
        box: SimulatedBox,
        port: Int = 0,
        clock: any Clock<Duration>,
        tls: DemoBoxTLS? = nil,
        log: any LogSink = DiscardingLogSink()
    ) throws(DemoBoxError) {
        self.box = box
        self.log = log
        do {
            server = try WebSocketServer(port: port, limits: Self.limits, clock: clock, tls: tls?.identity)
        } catch {
            throw DemoBoxError(.listen, "cannot listen on 127.0.0.1:\(port): \(error)", cause: error)
        }
    }

    /// Serves phones until ``close()`` or cancellation.
    ///
    /// - Throws: `WebSocketError` when the listening socket fails.
    public func run() async throws {
        try await server.run { request in await self.serve(request) }
    }

    /// Stops listening and closes every phone's socket.
    public func close() async {
        await server.close()
    }

    /// Every phone's stream the relay holds or last saw leave, with the close code its phone sent as the relay's
    /// socket read it, nil while none came: there the moment the close frame arrived, before the relay's echo let the
    /// phone go on (1006 once a socket ended without one). A test reads it at an instant of the phone's own to tell
    /// whether the relay had seen its close by then.
    public var closeCodes: [Int: UInt16?] {
        sockets.withLock { sockets in
            sockets.open.mapValues(\.closeCode).merging(sockets.left.mapValues { $0 }) { $1 }
        }
    }

    /// Turns the relay's epoch over now (a test's top of the hour): every stream closes with 4410 and the new epoch,
    /// and only the new epoch's room is open.
    public func rotateEpoch() async {
        await box.rotateRelayEpoch()
    }

    /// Restarts the relay's proxy: every socket closes with 1001 and the box rejoins after its backoff.
    public func restart() async {
        await box.restartRelay()
    }

    /// Spends the household's join allowance for this window: joins get 4429 `slow down` until it turns.
    public func spendJoinAllowance() async {
        await box.spendJoinAllowance()
    }

    /// The address the relay counts a join against: the first of `X-Forwarded-For`, which Caddy sets in front of
    /// the real relay, else the loopback every socket here comes from.
    static func address(of request: WebSocketUpgradeRequest) -> String {
        let forwarded = request.headers["x-forwarded-for"]?.split(separator: ",").first
        return forwarded.map { $0.trimmingCharacters(in: .whitespaces) } ?? RelayModel.householdAddress
    }

    private func serve(_ request: WebSocketUpgradeRequest) async {
        let decision = await box.relayJoin(path: request.path, address: Self.address(of: request))
        guard let connection = try? request.accept() else { return }
        switch decision {
        case .refused(let code, let reason):
            await connection.close(code: UInt16(clamping: code), reason: reason)
        case .joined(let id, let events, _):
            sockets.withLock { $0.open[id] = connection }
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await Self.forward(events, to: connection) }
                group.addTask { await self.read(connection, stream: id) }
                await group.next()
                group.cancelAll()
            }
            await box.leaveRoom(streamID: id)
            sockets.withLock { sockets in
                sockets.open[id] = nil
                sockets.left[id] = connection.closeCode
                if sockets.left.count > Self.keptDepartures, let oldest = sockets.left.keys.min() {
                    sockets.left[oldest] = nil
                }
            }
            let code = connection.closeCode.map(String.init) ?? "none"
            log.log("relay", atMs: box.wallClock.nowMs, "stream \(id) left the room: close \(code)")
        }
    }

    /// The room's events to the phone: binary as binary, control words as text, a close as a close (a lost network
    /// as a dropped socket).
    private static func forward(_ events: AsyncStream<CarrierEvent>, to connection: WebSocketConnection) async {
        for await event in events {
            switch event {
            case .binary(let bytes): try? await connection.send(.binary(bytes))
            case .control(let word): try? await connection.send(.text(word))
            case .closed(let code, let reason):
                if code == 1006 {
                    connection.abort()
                } else {
                    await connection.close(code: UInt16(clamping: code), reason: reason)
                }
                return
            }
        }
    }

    /// The phone's messages to the box, until the socket ends or the phone breaks a relay rule.
    private func read(_ connection: WebSocketConnection, stream id: Int) async {
        while let message = try? await connection.receive() {
            switch message {
            case .binary(let bytes) where bytes.count > SimulatedBox.maxRelayMessage:
                return await connection.close(code: 4400, reason: "oversize")
            case .binary(let bytes):
                guard (try? await box.carrierSend(streamID: id, bytes)) != nil else { return }
            case .text:
                return await connection.close(code: 4400, reason: "text")
            }
        }
    }
}
