#if canImport(COpenSSL)
import Synchronization

/// A TLS connection over one ``TCPSocket``: the socket moves ciphertext, the ``TLSEngine`` turns it into plaintext.
///
/// ## Concurrency
/// The reader thread reads and the writer queue writes, and an `SSL` object must never be used by two threads at
/// once, so the engine sits behind one lock (`engine`), held only for engine calls and never across a blocking
/// socket call. Ciphertext leaves the engine only while `wire` is held, and goes out on the socket before `wire` is
/// let go: records reach the peer in the order the engine made them, even when the reader makes some (an alert, a
/// close_notify) while the writer queue makes others. Lock order is always `wire`, then `engine`.
final class TLSSession: Sendable {
    /// The largest TLS record on the wire (16 KiB of payload plus header, padding and tag): one read's worth.
    private static let maxRecordSize = 16_384 + 2_048

    let socket: TCPSocket
    private let engine: Mutex<TLSEngine>
    private let wire = Mutex(())

    private init(socket: TCPSocket, engine: sending TLSEngine) {
        self.socket = socket
        self.engine = Mutex(engine)
    }

    /// Runs the handshake over `socket` on the calling thread (the handshake thread), in either role.
    ///
    /// A failed handshake's alert is sent before the error is thrown, and nothing else: no WebSocket byte is
    /// written until this returns.
    /// - Throws: The ``TLSEngine`` classification (untrusted, expired, wrong host, plain text, failed),
    ///   ``WebSocketError/Code/tlsNoCloseNotify`` when TCP ends first, or the socket's error.
    static func handshake(
        over socket: TCPSocket,
        context: TLSContext,
        host: String,
        port: Int
    ) throws(WebSocketError) -> TLSSession {
        let session = TLSSession(socket: socket, engine: try TLSEngine(context: context, host: host, port: port))
        var buffer = [UInt8](repeating: 0, count: maxRecordSize)
        while true {
            let step = session.engine.withLock { $0.handshake() }
            try session.flush()
            switch step {
            case .done: return session
            case .failed(let error): throw error
            case .needsInput: break
            }
            let count = try socket.receive(into: &buffer)
            let failure = session.engine.withLock { engine in
                count > 0 ? engine.feed(buffer[..<count]) : engine.endWithoutCloseNotify()
            }
            if let failure { throw failure }
        }
    }

    /// Reads plaintext, blocking until some arrives.
    ///
    /// - Returns: The number of bytes read; 0 once the peer's close_notify arrived (or the socket was shut down).
    /// - Throws: ``WebSocketError/Code/tlsNoCloseNotify`` when TCP ends without close_notify, or a record's error.
    func receive(into buffer: inout [UInt8]) throws(WebSocketError) -> Int {
        var ciphertext = [UInt8](repeating: 0, count: Self.maxRecordSize)
        while true {
            let (read, hasOutput) = engine.withLock { engine in (engine.read(into: &buffer), engine.hasOutput) }
            if hasOutput { try flush() }
            switch read {
            case .bytes(let count): return count
            case .closed: return 0
            case .failed(let error): throw error
            case .needsInput: break
            }
            let count = try socket.receive(into: &ciphertext)
            let failure = engine.withLock { engine -> WebSocketError? in
                guard count > 0 else { return socket.isShutDown ? nil : engine.endWithoutCloseNotify() }
                return engine.feed(ciphertext[..<count])
            }
            if let failure { throw failure }
            if count == 0 { return 0 }
        }
    }

    /// Whether a read could return at once from bytes already received.
    var hasBufferedInput: Bool { engine.withLock { $0.hasBufferedInput } }

    /// Encrypts `plaintext` and writes every record.
    func sendAll(_ plaintext: [UInt8]) throws(WebSocketError) {
        try wire.withLock { _ throws(WebSocketError) in
            let (failure, ciphertext) = engine.withLock { engine in (engine.write(plaintext), engine.takeOutput()) }
            if let failure { throw failure }
            try socket.sendAll(ciphertext)
        }
    }

    /// Sends close_notify, then FIN: the peer reads our last record and knows the stream was not cut.
    func finishWriting() {
        wire.withLock { _ in
            let ciphertext = engine.withLock { engine in
                engine.closeNotify()
                return engine.takeOutput()
            }
            try? socket.sendAll(ciphertext)
        }
        socket.finishWriting()
    }

    /// Sends whatever ciphertext the engine has made.
    private func flush() throws(WebSocketError) {
        try wire.withLock { _ throws(WebSocketError) in
            let ciphertext = engine.withLock { $0.takeOutput() }
            if !ciphertext.isEmpty { try socket.sendAll(ciphertext) }
        }
    }
}
#endif
