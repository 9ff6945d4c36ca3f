import FTWBus
import FTWFixtures
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP proxy on 127.0.0.1 in front of a relay, whose way back to the phone turns into a trickle after the
/// WebSocket upgrade: one byte every ``interval`` while ``throttled`` is set, at full speed otherwise. The phone's
/// bytes pass at full speed. It is the link "at 1 byte/s after the upgrade", sped up.
///
/// Blocking calls run on threads of their own; ``stop()`` shuts every socket down, which wakes them.
final class ThrottledLink: Sendable {
    struct Failure: Error {}

    let port: Int
    let interval: Duration
    private let upstream: Int
    private let listener: Int32
    private let sockets = Mutex<[Int32]>([])
    private let isThrottled = Mutex(true)
    /// Fulfilled when the first phone's connection reaches the relay through the link: a test that must act while a
    /// greeting is underway waits on it instead of on the wall clock.
    let connected = OneShot<Void>()

    /// Listens on an ephemeral port and forwards to 127.0.0.1:`upstream`.
    init(upstream: Int, interval: Duration) throws {
        guard let (listener, port) = LoopbackTCP.listening() else { throw Failure() }
        self.listener = listener
        self.port = port
        self.upstream = upstream
        self.interval = interval
        Thread { self.acceptLoop() }.start()
    }

    /// Whether the way back trickles; a link that turns fast again passes what waits at once.
    var throttled: Bool {
        get { isThrottled.withLock { $0 } }
        set { isThrottled.withLock { $0 = newValue } }
    }

    /// Shuts every socket down, which ends every thread.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        for descriptor in sockets.withLock({ $0 }) { shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    deinit {
        close(listener)
        for descriptor in sockets.withLock({ $0 }) { close(descriptor) }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            guard let server = LoopbackTCP.connected(to: upstream) else {
                shutdown(client, Int32(SHUT_RDWR))
                continue
            }
            sockets.withLock { $0 += [client, server] }
            connected.fulfil(())
            Thread { self.pass(from: client, to: server, trickling: false) }.start()
            Thread { self.pass(from: server, to: client, trickling: true) }.start()
        }
    }

    /// Copies until either side ends; with `trickling`, everything after the end of the upgrade's head goes one
    /// byte at a time while throttled.
    private func pass(from source: Int32, to sink: Int32, trickling: Bool) {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        var head: [UInt8] = []
        var upgraded = !trickling
        defer {
            shutdown(source, Int32(SHUT_RDWR))
            shutdown(sink, Int32(SHUT_RDWR))
        }
        while true {
            let count = read(source, &buffer, buffer.count)
            guard count > 0 else { return }
            var bytes = Array(buffer[..<count])
            if !upgraded {
                head += bytes
                guard let end = Self.endOfHead(head) else { continue }
                guard Self.write(Array(head[..<end]), to: sink) else { return }
                bytes = Array(head[end...])
                upgraded = true
            }
            guard trickling, throttled else {
                guard Self.write(bytes, to: sink) else { return }
                continue
            }
            for byte in bytes {
                if throttled { Thread.sleep(forTimeInterval: Double(interval / .milliseconds(1)) / 1_000) }
                guard Self.write([byte], to: sink) else { return }
            }
        }
    }

    private static func endOfHead(_ bytes: [UInt8]) -> Int? {
        let end = Array("\r\n\r\n".utf8)
        guard bytes.count >= end.count else { return nil }
        for start in 0...(bytes.count - end.count) where Array(bytes[start..<start + end.count]) == end {
            return start + end.count
        }
        return nil
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }
}
