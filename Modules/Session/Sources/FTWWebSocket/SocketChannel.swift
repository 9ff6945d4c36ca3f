import FTWSocketLoop

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One non-blocking TCP socket on an ``EventLoop``, in the clear (`ws://`) or through TLS (`wss://`): it reads when
/// the loop says the socket is readable, into one buffer it keeps for its whole life, and writes what it is given in
/// order, keeping what the kernel did not take until the socket is writable again.
///
/// Everything above it (the HTTP head, frames, closing) is the same for both securities; only this type knows
/// whether a byte is encrypted. During the opening handshake its owner awaits it (``SocketChannel+Handshake``);
/// afterwards a ``ChannelReader`` (the WebSocket connection) is handed every byte on the loop's thread, so a frame
/// goes from the kernel to the connection's parser in the call that read it.
///
/// ## Concurrency
/// Loop-confined: every stored property but the immutable ones is touched on the loop's thread only. Its owners
/// call it there (``onLoop(_:)``), and the async handshake steps hop there and back once each.
final class SocketChannel: LoopHandler, @unchecked Sendable {
    // @unchecked: the mutable state is confined to `loop`'s thread (every entry point goes through `onLoop` or is a
    // LoopHandler callback); the Sendable parts are immutable.
    // TODO: make it a non-Sendable class owned by its connection once region isolation can express loop confinement.

    /// Called when a write's bytes were all handed to the kernel, or with the error that ended the socket.
    typealias Completion = @Sendable (WebSocketError?) -> Void

    /// Who takes the bytes that arrive.
    enum Input {
        /// Nobody: nothing is read, so the kernel holds what arrives and TCP flow control reaches the peer.
        case idle
        /// The TLS handshake runs and resumes its waiter when it is done.
        case tlsHandshake(CheckedContinuation<Result<Void, WebSocketError>, Never>)
        /// An HTTP head is being read.
        case head(HeadRead)
        /// A reader takes every byte.
        case reader(any ChannelReader)
        /// Bytes are dropped until the peer ends the stream (a lingering close); then `onEnd` runs.
        case discard(onEnd: () -> Void)

        /// Whether the socket is read for it (unless reading is paused, which the handshake ignores): nil for nobody,
        /// true for the TLS handshake, which reads even while plaintext reading is paused, false for the others.
        var readsDuringPause: Bool? {
            switch self {
            case .idle: nil
            case .tlsHandshake: true
            case .head, .reader, .discard: false
            }
        }
    }

    /// An HTTP head on its way in.
    struct HeadRead {
        let limit: Int
        var received: [UInt8]
        let continuation: CheckedContinuation<Result<(head: [UInt8], leftover: [UInt8]), WebSocketError>, Never>
    }

    private struct PendingWrite {
        let bytes: [UInt8]
        var offset = 0
        let completion: Completion?
    }

    enum Security {
        /// `ws://`: bytes go to the socket as they are.
        case plain
        #if canImport(CFTWOpenSSL)
        /// `wss://`: bytes go through the TLS engine.
        case tls(TLSEngine)
        #endif
    }

    /// One read's worth: a whole relay message, or several TLS records. Allocated once per socket and never zeroed.
    static let bufferSize = 65_536

    let loop: EventLoop
    let descriptor: Int32
    /// The peer as a person knows it, "host:port", for messages.
    let peer: String
    // The loop-confined state below is marked `@exclusivity(unchecked)`: only the loop's thread touches it, and a
    // dynamic access check on every read and write of a socket cost more than the check could ever catch.

    /// Where reads land (ciphertext, then plaintext with TLS): allocated once, never zeroed, reused for every read.
    let readBuffer: UnsafeMutableRawBufferPointer
    @exclusivity(unchecked) var input = Input.idle {
        // Kept beside the enum: asking the enum its case copies its payload (a retain and a release of the reader),
        // and every read asks twice.
        didSet { inputReads = input.readsDuringPause }
    }
    /// ``Input/readsDuringPause`` of `input`.
    @exclusivity(unchecked) private var inputReads: Bool?
    @exclusivity(unchecked) var security = Security.plain
    @exclusivity(unchecked) private var isReadingPaused = false
    @exclusivity(unchecked) private var connectWaiter: CheckedContinuation<Result<Void, WebSocketError>, Never>?
    @exclusivity(unchecked) private var outbound: [PendingWrite] = []
    @exclusivity(unchecked) private var outboundHead = 0
    private var isFinishRequested = false
    private var hasFinishedWriting = false
    @exclusivity(unchecked) private var watched = (reading: false, writing: false)
    private var stall: WriteStall?
    @exclusivity(unchecked) private(set) var isClosed = false

    /// Wraps `descriptor` (a connected or connecting socket, already non-blocking), which the channel closes.
    init(descriptor: Int32, loop: EventLoop, peer: String, stall: WriteStall?) {
        self.descriptor = descriptor
        self.loop = loop
        self.peer = peer
        self.stall = stall
        readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferSize, alignment: 16)
    }

    deinit {
        readBuffer.deallocate()
        if !isClosed { SocketPlatform.closeDescriptor(descriptor) }
    }

    /// Runs `work` on the loop's thread: now if this is it, else after what is queued there.
    func onLoop(_ work: @escaping @Sendable () -> Void) {
        if loop.inEventLoop { work() } else { loop.execute(work) }
    }

    // MARK: - Reading

    /// Hands every byte from now on to `reader`: `leftover` (bytes read with the head) first.
    func attach(_ reader: any ChannelReader, leftover: [UInt8]) {
        guard !isClosed else { return reader.channelEnded(Self.closedError) }
        input = .reader(reader)
        if !leftover.isEmpty { leftover.withUnsafeBytes { reader.channelReceived($0) } }
        readBuffered()
    }

    /// Stops reading: what arrives waits in the kernel (and in TLS's buffer) until ``resumeReading()``.
    func pauseReading() {
        isReadingPaused = true
        updateInterest()
    }

    /// Reads again after ``pauseReading()``, starting with what TLS already holds.
    func resumeReading() {
        guard isReadingPaused else { return }
        isReadingPaused = false
        readBuffered()
    }

    /// Drops what arrives until the peer ends the stream, then runs `onEnd` (the lingering close: closing with
    /// unread bytes makes the kernel send RST, which can destroy the close frame the peer has not read yet).
    func discardInput(onEnd: @escaping () -> Void) {
        guard !isClosed else { return onEnd() }
        input = .discard(onEnd: onEnd)
        isReadingPaused = false
        readBuffered()
    }

    /// Reads what TLS already decrypted or holds (the socket will not say it is readable for those), then watches
    /// the socket.
    func readBuffered() {
        #if canImport(CFTWOpenSSL)
        if case .tls = security { pumpTLS() }
        #endif
        updateInterest()
    }

    func readable() {
        guard !isClosed, wantsInput else { return }
        let count = recv(descriptor, readBuffer.baseAddress, readBuffer.count, 0)
        if count > 0 {
            received(count)
        } else if count == 0 {
            endOfStream()
        } else if errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR {
            ended(
                WebSocketError(
                    .connectionLost,
                    "\(peer): \(SocketPlatform.lastError("recv"))",
                    closeCode: WebSocketCloseCode.abnormalClosure
                )
            )
        }
    }

    private func received(_ count: Int) {
        switch security {
        case .plain:
            deliver(UnsafeRawBufferPointer(rebasing: readBuffer[..<count]))
        #if canImport(CFTWOpenSSL)
        case .tls(let engine):
            if let failure = engine.feed(UnsafeRawBufferPointer(rebasing: readBuffer[..<count])) {
                return ended(failure)
            }
            pumpTLS()
        #endif
        }
        updateInterest()
    }

    /// The peer ended TCP: with TLS, a clean end only after close_notify.
    private func endOfStream() {
        switch security {
        case .plain:
            ended(nil)
        #if canImport(CFTWOpenSSL)
        case .tls(let engine):
            ended(engine.endWithoutCloseNotify())
        #endif
        }
    }

    /// Plaintext for whoever reads now.
    func deliver(_ bytes: UnsafeRawBufferPointer) {
        switch input {
        case .reader(let reader):
            reader.channelReceived(bytes)
        case .head(var read):
            input = .idle
            let outcome = read.take(bytes)
            switch outcome {
            case nil: input = .head(read)
            case .some(let result): read.continuation.resume(returning: result)
            }
        case .discard, .idle, .tlsHandshake:
            return
        }
    }

    /// The stream ended (nil: cleanly) or failed: whoever reads is told once.
    func ended(_ error: WebSocketError?) {
        let current = input
        input = .idle
        updateInterest()
        switch current {
        case .reader(let reader):
            reader.channelEnded(error)
        case .head(let read):
            read.continuation.resume(
                returning: .failure(error ?? WebSocketError(.handshakeFailed, "connection ended during the handshake"))
            )
        case .tlsHandshake(let continuation):
            continuation.resume(returning: .failure(error ?? Self.closedError))
        case .discard(let onEnd):
            onEnd()
        case .idle:
            return
        }
    }

    private var wantsInput: Bool {
        guard let duringPause = inputReads else { return false }
        return duringPause || !isReadingPaused
    }

    /// Whether someone takes plaintext now.
    var isTakingPlaintext: Bool {
        inputReads == false && !isReadingPaused
    }

    // MARK: - Writing

    /// Queues `bytes` (plaintext) and writes what the kernel takes now; `completion` runs once they are all written,
    /// or with the error that ended the socket.
    func write(_ bytes: [UInt8], completion: Completion?) {
        guard !isClosed, !isFinishRequested else {
            completion?(isClosed ? Self.closedError : WebSocketError(.io, "\(peer): write after the end of writing"))
            return
        }
        var wire = bytes
        #if canImport(CFTWOpenSSL)
        if case .tls(let engine) = security {
            if let failure = engine.write(bytes) {
                completion?(failure)
                return
            }
            wire = engine.takeOutput()
        }
        #endif
        outbound.append(PendingWrite(bytes: wire, completion: completion))
        flush()
    }

    /// Queues bytes the TLS engine made on its own (handshake records, alerts) and writes them.
    func queueCiphertext(_ bytes: [UInt8]) {
        outbound.append(PendingWrite(bytes: bytes, completion: nil))
        flush()
    }

    /// Ends our direction once everything queued is written (with TLS, close_notify goes first), so the peer reads
    /// our last frame before it sees the end.
    func finishWriting() {
        guard !isClosed, !isFinishRequested else { return }
        isFinishRequested = true
        #if canImport(CFTWOpenSSL)
        if case .tls(let engine) = security {
            engine.closeNotify()
            let alert = engine.takeOutput()
            if !alert.isEmpty { outbound.append(PendingWrite(bytes: alert, completion: nil)) }
        }
        #endif
        flush()
    }

    /// Writes queued bytes until the kernel stops taking them.
    func flush() {
        while outboundHead < outbound.count, !isClosed {
            let sent = outbound[outboundHead].bytes.withUnsafeBytes { raw in
                let offset = outbound[outboundHead].offset
                return send(
                    descriptor,
                    raw.baseAddress.map { $0 + offset },
                    raw.count - offset,
                    SocketPlatform.sendFlags
                )
            }
            if sent >= 0 {
                stall?.progressed()
                outbound[outboundHead].offset += sent
                guard outbound[outboundHead].offset == outbound[outboundHead].bytes.count else { continue }
                let done = outbound[outboundHead]
                outboundHead += 1
                done.completion?(nil)
            } else if errno == EINTR {
                continue
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                stall?.arm(self)
                break
            } else {
                let failure = WebSocketError(.io, "\(peer): \(SocketPlatform.lastError("send"))")
                failWrites(failure)
                ended(
                    WebSocketError(
                        .connectionLost,
                        failure.message,
                        closeCode: WebSocketCloseCode.abnormalClosure
                    )
                )
                return
            }
        }
        if outboundHead == outbound.count {
            outbound.removeAll(keepingCapacity: true)
            outboundHead = 0
            stall?.disarm()
            if isFinishRequested, !hasFinishedWriting, !isClosed {
                hasFinishedWriting = true
                _ = shutdown(descriptor, Int32(SHUT_WR))
            }
        }
        updateInterest()
    }

    /// The write timeout ran out: if no write made progress since it started, the peer stopped reading.
    func stallTimerFired(mark: Int) {
        guard !isClosed, outboundHead < outbound.count, let stall, stall.expired(mark: mark, self) else { return }
        let failure = WebSocketError(.io, "\(peer): a write stalled (the peer stopped reading)")
        failWrites(failure)
        ended(WebSocketError(.connectionLost, failure.message, closeCode: WebSocketCloseCode.abnormalClosure))
    }

    func writable() {
        guard !isClosed else { return }
        if let waiter = connectWaiter {
            connectWaiter = nil
            return waiter.resume(returning: connectOutcome())
        }
        flush()
    }

    private func failWrites(_ error: WebSocketError) {
        let failed = outbound[outboundHead...]
        outbound = []
        outboundHead = 0
        for write in failed { write.completion?(error) }
    }

    // MARK: - Interest and closing

    /// Watches the socket for what the channel needs now.
    func updateInterest() {
        let wanted = (
            reading: !isClosed && wantsInput,
            writing: !isClosed && (connectWaiter != nil || outboundHead < outbound.count)
        )
        guard wanted != watched else { return }
        watched = wanted
        guard loop.watch(descriptor, self, reading: wanted.reading, writing: wanted.writing) else {
            let failure = WebSocketError(.io, "\(peer): the event loop cannot watch the socket (out of memory)")
            failWrites(failure)
            return ended(failure)
        }
    }

    /// Waits until a non-blocking `connect` that returned EINPROGRESS finishes.
    func waitUntilConnected(_ continuation: CheckedContinuation<Result<Void, WebSocketError>, Never>) {
        guard !isClosed else { return continuation.resume(returning: .failure(Self.closedError)) }
        connectWaiter = continuation
        updateInterest()
    }

    private func connectOutcome() -> Result<Void, WebSocketError> {
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length)
        updateInterest()
        guard failure == 0 else {
            // The reason alone: the dial names the address, once (`HappyEyeballs.failureMessage`).
            return .failure(WebSocketError(.connectFailed, "connect: \(String(cString: strerror(failure)))"))
        }
        return .success(())
    }

    /// Releases the descriptor at once; whoever waits on the channel is told `error`. Later calls do nothing.
    func close(_ error: WebSocketError = SocketChannel.closedError) {
        guard !isClosed else { return }
        isClosed = true
        updateInterest()
        SocketPlatform.closeDescriptor(descriptor)
        stall?.disarm()
        stall = nil
        failWrites(error)
        if let waiter = connectWaiter {
            connectWaiter = nil
            waiter.resume(returning: .failure(error))
        }
        switch input {
        case .head, .tlsHandshake, .discard: ended(error)
        case .reader, .idle: input = .idle
        }
    }

    /// Closes the channel from any thread.
    func abort(_ error: WebSocketError) {
        onLoop { self.close(error) }
    }

    static let closedError = WebSocketError(
        .connectionLost,
        "the socket is closed",
        closeCode: WebSocketCloseCode.abnormalClosure
    )
}

/// What reads a ``SocketChannel``'s bytes once the opening handshake is over; called on the loop's thread.
protocol ChannelReader: AnyObject {
    /// Plaintext that arrived, valid only during the call.
    func channelReceived(_ bytes: UnsafeRawBufferPointer)
    /// The stream ended: nil when the peer ended it cleanly, the error otherwise. Told once.
    func channelEnded(_ error: WebSocketError?)
}
