/// Turns bytes, fed in pieces as they arrive, into validated frames: the sans-I/O half of the reader.
///
/// It enforces every framing rule of RFC 6455 §5 that can be judged from headers: masking by role, no RSV bits
/// (no extensions are negotiated), known opcodes, short unfragmented control frames, minimal-or-not lengths with the
/// 64-bit high bit clear, and the order of fragments. Sizes are checked against ``WebSocketLimits`` as soon as a
/// header is complete, so an oversize frame or message is refused (1009) before its payload is buffered.
///
/// After an error the parser stays failed and throws the same error again, so a caller cannot resume mid-stream.
public struct WebSocketFrameParser: Sendable {
    private struct Header {
        var isFinal: Bool
        var opcode: WebSocketOpcode
        var maskingKey: UInt32?
        var headerLength: Int
        var payloadLength: Int
    }

    private let role: WebSocketRole
    private let maxFrameSize: Int
    private let maxMessageSize: Int
    private var buffer: [UInt8] = []
    private var start = 0
    /// The opcode and bytes so far of a fragmented message whose final frame has not arrived.
    private var fragmented: (opcode: WebSocketOpcode, length: Int)?
    private var failure: WebSocketError?

    /// Makes a parser for frames arriving at an endpoint of `role`, bounded by `limits`.
    public init(role: WebSocketRole, limits: WebSocketLimits) {
        self.role = role
        self.maxFrameSize = limits.maxFrameSize
        self.maxMessageSize = limits.maxMessageSize
    }

    /// Bytes received and not yet returned as frames.
    public var bufferedByteCount: Int { buffer.count - start }

    /// The bytes of a text, binary or continuation frame that has begun to arrive and is not complete: a message on
    /// its way. A control frame's bytes (a ping) are not counted: they say the link lives, not that an answer comes.
    public var bufferedDataByteCount: Int {
        guard bufferedByteCount > 0, byte(0) & 0x08 == 0 else { return 0 }
        return bufferedByteCount
    }

    /// Adds bytes as they come off the wire.
    public mutating func append(contentsOf bytes: some Sequence<UInt8>) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, or nil if more bytes are needed.
    ///
    /// - Throws: ``WebSocketError`` with `closeCode` 1002 for a framing violation or 1009 for an oversize frame or
    ///   message; once thrown, every later call throws it again.
    public mutating func nextFrame() throws(WebSocketError) -> WebSocketFrame? {
        if let failure { throw failure }
        do {
            guard let header = try parseHeader() else { return nil }
            let frameLength = header.headerLength + header.payloadLength
            guard bufferedByteCount >= frameLength else { return nil }
            let payloadStart = start + header.headerLength
            var payload = Array(buffer[payloadStart..<(payloadStart + header.payloadLength)])
            if let key = header.maskingKey { WebSocketMask.apply(key, to: &payload) }
            start += frameLength
            trackFragments(header)
            return WebSocketFrame(opcode: header.opcode, payload: payload, isFinal: header.isFinal)
        } catch {
            failure = error
            throw error
        }
    }

    private func byte(_ offset: Int) -> UInt8 { buffer[start + offset] }

    private func parseHeader() throws(WebSocketError) -> Header? {
        guard bufferedByteCount >= 2 else { return nil }
        let first = byte(0)
        let second = byte(1)
        guard first & 0x70 == 0 else { throw .protocolViolation("RSV bits set without a negotiated extension") }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            throw .protocolViolation("unknown opcode \(first & 0x0F)")
        }
        let isFinal = first & 0x80 != 0
        let isMasked = second & 0x80 != 0
        try checkMasking(isMasked)
        let shortLength = Int(second & 0x7F)
        if opcode.isControl {
            guard isFinal else { throw .protocolViolation("fragmented control frame") }
            guard shortLength <= 125 else { throw .protocolViolation("control frame longer than 125 bytes") }
        }
        guard let (payloadLength, lengthBytes) = try extendedLength(shortLength) else { return nil }
        try checkOrder(opcode)
        try checkSize(opcode, payloadLength)
        let maskLength = isMasked ? 4 : 0
        let headerLength = 2 + lengthBytes + maskLength
        guard bufferedByteCount >= headerLength else { return nil }
        let maskStart = start + 2 + lengthBytes
        let key = isMasked ? buffer[maskStart..<(maskStart + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } : nil
        return Header(
            isFinal: isFinal,
            opcode: opcode,
            maskingKey: key,
            headerLength: headerLength,
            payloadLength: payloadLength
        )
    }

    private func checkMasking(_ isMasked: Bool) throws(WebSocketError) {
        switch (role, isMasked) {
        case (.server, false): throw .protocolViolation("client frame is not masked")
        case (.client, true): throw .protocolViolation("server frame is masked")
        default: return
        }
    }

    /// The payload length and how many extra bytes encoded it, or nil until those bytes have arrived.
    private func extendedLength(_ shortLength: Int) throws(WebSocketError) -> (Int, Int)? {
        switch shortLength {
        case 126:
            guard bufferedByteCount >= 4 else { return nil }
            return (Int(byte(2)) << 8 | Int(byte(3)), 2)
        case 127:
            guard bufferedByteCount >= 10 else { return nil }
            guard byte(2) & 0x80 == 0 else { throw .protocolViolation("64-bit length with the high bit set") }
            var length: UInt64 = 0
            for offset in 2..<10 { length = length << 8 | UInt64(byte(offset)) }
            guard let value = Int(exactly: length) else { throw .messageTooBig("frame of \(length) bytes") }
            return (value, 8)
        default:
            return (shortLength, 0)
        }
    }

    private func checkOrder(_ opcode: WebSocketOpcode) throws(WebSocketError) {
        switch opcode {
        case .continuation where fragmented == nil:
            throw .orphanContinuation
        case .text, .binary:
            guard fragmented == nil else { throw .interruptedFragments }
        default: return
        }
    }

    private func checkSize(_ opcode: WebSocketOpcode, _ payloadLength: Int) throws(WebSocketError) {
        guard payloadLength <= maxFrameSize else {
            throw .messageTooBig("frame of \(payloadLength) bytes exceeds the limit of \(maxFrameSize)")
        }
        guard !opcode.isControl else { return }
        let (total, overflow) = (fragmented?.length ?? 0).addingReportingOverflow(payloadLength)
        guard !overflow, total <= maxMessageSize else {
            throw .messageTooBig("message exceeds the limit of \(maxMessageSize) bytes")
        }
    }

    private mutating func trackFragments(_ header: Header) {
        switch header.opcode {
        case .text, .binary:
            if !header.isFinal { fragmented = (header.opcode, header.payloadLength) }
        case .continuation:
            fragmented = header.isFinal ? nil : fragmented.map { ($0.opcode, $0.length + header.payloadLength) }
        default: return
        }
    }
}
