import FTWFixtures
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP server on 127.0.0.1 for one client, that records every byte the client sends and then plays a part:
/// forward to a real server (a recording proxy), stay silent, or hang up after the first bytes.
///
/// It lets a test assert what went over the wire, in particular that nothing followed a failed TLS handshake.
/// Blocking calls run on threads of their own; ``stop()`` shuts every socket down, which wakes them.
final class RecordingTCPServer: Sendable {
    enum Part: Sendable {
        /// Pass bytes both ways to a server on 127.0.0.1:`port`.
        case forward(port: Int)
        /// Read and record, never answer.
        case silent
        /// Read the first bytes, then close TCP (never having spoken TLS, so without close_notify).
        case hangUpAfterFirstBytes
    }

    let port: Int
    private let listener: Int32
    private let received = Mutex<[UInt8]>([])
    private let sockets = Mutex<[Int32]>([])
    private let corruptsNextAnswer = Mutex(false)
    private let firstBytes = Mailbox<Void>()
    private let clientEnded = Mailbox<Void>()

    init(_ part: Part) throws {
        guard let (listener, port) = LoopbackTCP.listening(backlog: 4) else { throw RawTCPError.connectFailed }
        self.listener = listener
        self.port = port
        Thread { self.serve(part) }.start()
    }

    deinit {
        close(listener)
        for descriptor in sockets.withLock({ $0 }) { close(descriptor) }
    }

    /// Everything the client has sent so far.
    var bytes: [UInt8] { received.withLock { $0 } }

    /// Returns once the client has sent something.
    func waitForFirstBytes() async { _ = await firstBytes.next() }

    /// Returns once the client has ended its side of TCP (or the socket failed).
    func waitForClientEnd() async { _ = await clientEnded.next() }

    /// Flips one bit of the next bytes the forwarded server sends the client, as an attacker on the path would.
    func corruptNextAnswer() {
        corruptsNextAnswer.withLock { $0 = true }
    }

    /// Cuts the client's TCP connection at once, without any TLS goodbye.
    func cut() {
        for descriptor in sockets.withLock({ $0 }) { shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    /// Stops serving and wakes every thread.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        cut()
    }

    private func serve(_ part: Part) {
        let client = accept(listener, nil, nil)
        guard client >= 0 else { return clientEnded.post(()) }
        sockets.withLock { $0.append(client) }
        switch part {
        case .forward(let port):
            guard let upstream = LoopbackTCP.connected(to: port) else { return clientEnded.post(()) }
            sockets.withLock { $0.append(upstream) }
            Thread { Self.pump(from: upstream, to: client, record: nil, alter: self.alter) }.start()
            Self.pump(from: client, to: upstream, record: record)
        case .silent:
            Self.pump(from: client, to: nil, record: record)
        case .hangUpAfterFirstBytes:
            var chunk = [UInt8](repeating: 0, count: 16_384)
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count > 0 { record(Array(chunk[..<count])) }
            shutdown(client, Int32(SHUT_RDWR))
        }
        clientEnded.post(())
    }

    private func record(_ chunk: [UInt8]) {
        let isFirst = received.withLock { received in
            defer { received += chunk }
            return received.isEmpty
        }
        if isFirst { firstBytes.post(()) }
    }

    private func alter(_ chunk: inout [UInt8], count: Int) {
        guard corruptsNextAnswer.withLock({ $0 }) else { return }
        corruptsNextAnswer.withLock { $0 = false }
        chunk[count - 1] ^= 0x01
    }

    /// Copies bytes from `source` to `target` until `source` ends, then ends `target`'s writing side.
    private static func pump(
        from source: Int32,
        to target: Int32?,
        record: (([UInt8]) -> Void)?,
        alter: ((inout [UInt8], Int) -> Void)? = nil
    ) {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            record?(Array(chunk[..<count]))
            alter?(&chunk, count)
            if let target {
                _ = chunk.withUnsafeBytes { send(target, $0.baseAddress, count, Int32(MSG_NOSIGNAL)) }
            }
        }
        if let target { shutdown(target, Int32(SHUT_WR)) }
    }
}
