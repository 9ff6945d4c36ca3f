import FTWBus

/// The opening handshake's steps as awaitable calls: each hops to the loop once and comes back with its outcome,
/// so the handshake reads top to bottom while no thread waits on the socket.
extension SocketChannel {
    /// The first byte of a TLS ClientHello, which no HTTP head starts with.
    static let tlsHandshakeRecord: UInt8 = 0x16

    /// Reads until the blank line that ends an HTTP head, never buffering more than `limit` bytes of head, then stops
    /// reading (what follows waits for ``attach(_:leftover:)``).
    ///
    /// - Returns: The head through its blank line, and any bytes the peer sent after it (early frames).
    /// - Throws: ``WebSocketError/Code/handshakeFailed`` when the head is too long, TCP ends first, or the peer
    ///   opens with a TLS record on a plain stream (with `httpStatus` 400, so a server answers in plain text).
    func readHead(limit: Int) async throws(WebSocketError) -> (head: [UInt8], leftover: [UInt8]) {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<(head: [UInt8], leftover: [UInt8]), WebSocketError>, Never>) in
            onLoop {
                guard !self.isClosed else { return continuation.resume(returning: .failure(Self.closedError)) }
                self.input = .head(HeadRead(limit: limit, received: [], continuation: continuation))
                self.readBuffered()
            }
        }
        return try result.get()
    }

    /// Writes every byte and returns once the kernel has taken them.
    ///
    /// - Throws: ``WebSocketError/Code/io`` when the socket failed or was closed.
    func writeAll(_ bytes: [UInt8]) async throws(WebSocketError) {
        let failure = await withCheckedContinuation { continuation in
            onLoop { self.write(bytes) { continuation.resume(returning: $0) } }
        }
        if let failure { throw failure }
    }

    /// Writes an HTTP refusal, lets the client read it, and releases the socket.
    func sendRefusal(_ response: [UInt8], drainFor timeout: Duration, clock: any Clock<Duration>) async {
        guard (try? await writeAll(response)) != nil else { return abort(Self.closedError) }
        await lingeringClose(within: timeout, clock: clock)
    }

    /// Ends our direction, drops what the peer still sends until it ends TCP (at most `timeout` on `clock`), then
    /// closes: closing with unread bytes would make the kernel send RST, which can destroy what the peer has not
    /// read yet.
    func lingeringClose(within timeout: Duration, clock: any Clock<Duration>) async {
        let ended = OneShot<Void>()
        onLoop {
            self.finishWriting()
            self.discardInput {
                self.close()
                ended.fulfil(())
            }
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                guard (try? await clock.sleep(for: timeout)) != nil else { return }
                self.abort(Self.closedError)
            }
            await ended.value
            group.cancelAll()
        }
    }
}

extension SocketChannel.HeadRead {
    /// Adds `bytes` to the head; the outcome once the head is complete or refused, nil while more is needed.
    mutating func take(_ bytes: UnsafeRawBufferPointer) -> Result<(head: [UInt8], leftover: [UInt8]), WebSocketError>? {
        if received.isEmpty, bytes.first == SocketChannel.tlsHandshakeRecord {
            return .failure(
                WebSocketError(.handshakeFailed, "the peer speaks TLS on a plain ws:// port", httpStatus: 400)
            )
        }
        let searchFrom = received.count
        received.append(contentsOf: bytes)
        if let end = HTTPHead.endOffset(in: received, searchFrom: searchFrom), end <= limit {
            return .success((Array(received[..<end]), Array(received[end...])))
        }
        guard received.count < limit else {
            return .failure(WebSocketError(.handshakeFailed, "HTTP head longer than \(limit) bytes"))
        }
        return nil
    }
}
