#if canImport(CFTWOpenSSL)
/// TLS on the loop: the socket's bytes go into the engine, plaintext comes out into the channel's one buffer, and
/// what the engine makes (handshake records, alerts, close_notify) goes out in the order it was made.
extension SocketChannel {
    /// Runs the TLS handshake over the connected socket, in either role, and returns once it is done.
    ///
    /// A failed handshake's alert is sent before the error is thrown, and nothing else: no WebSocket byte is
    /// written until this returns.
    /// - Throws: The ``TLSEngine`` classification (untrusted, expired, wrong host, plain text, failed),
    ///   ``WebSocketError/Code/tlsNoCloseNotify`` when TCP ends first, or the socket's error.
    func handshakeTLS(context: TLSContext, host: String, port: Int) async throws(WebSocketError) {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Void, WebSocketError>, Never>) in
            onLoop {
                do throws(WebSocketError) {
                    let engine = try TLSEngine(context: context, host: host, port: port)
                    guard !self.isClosed else { return continuation.resume(returning: .failure(Self.closedError)) }
                    self.security = .tls(engine)
                    self.input = .tlsHandshake(continuation)
                    self.readBuffered()
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        try result.get()
    }

    /// Moves the handshake on, or hands out the plaintext the engine can make from what it was fed, until it needs
    /// more ciphertext or nobody reads.
    func pumpTLS() {
        guard case .tls(let engine) = security else { return }
        defer { sendEngineOutput(engine) }
        if case .tlsHandshake(let continuation) = input {
            let step = engine.handshake()
            guard case .needsInput = step else {
                input = .idle
                sendEngineOutput(engine)
                switch step {
                case .done: continuation.resume(returning: .success(()))
                case .failed(let error): continuation.resume(returning: .failure(error))
                case .needsInput: break
                }
                return
            }
            return
        }
        while !isClosed, isTakingPlaintext {
            switch engine.read(into: readBuffer) {
            case .bytes(let count): deliver(UnsafeRawBufferPointer(rebasing: readBuffer[..<count]))
            case .needsInput: return
            case .closed: return ended(nil)
            case .failed(let error): return ended(error)
            }
        }
    }

    /// Queues what the engine made for the socket.
    private func sendEngineOutput(_ engine: TLSEngine) {
        guard !isClosed, engine.hasOutput else { return }
        queueCiphertext(engine.takeOutput())
    }
}
#endif
