import FTWWebSocket

/// Helpers that run bytes through the sans-I/O reader exactly as the connection does.
enum FrameBytes {
    /// The RFC 6455 §5.7 masking key `37 fa 21 3d`.
    static let rfcMaskingKey: UInt32 = 0x37FA_213D

    /// Every event `bytes` yields to an endpoint of `role`, fed in one piece.
    static func events(
        _ bytes: [UInt8],
        role: WebSocketRole,
        limits: WebSocketLimits = WebSocketLimits()
    ) throws(WebSocketError) -> [WebSocketEvent] {
        var parser = WebSocketFrameParser(role: role, limits: limits)
        var assembler = WebSocketMessageAssembler()
        parser.append(contentsOf: bytes)
        var events: [WebSocketEvent] = []
        while let frame = try parser.nextFrame() {
            if let event = try assembler.consume(frame) { events.append(event) }
        }
        return events
    }

    /// The error `bytes` cause at an endpoint of `role`, or nil if they are accepted.
    static func error(
        _ bytes: [UInt8],
        role: WebSocketRole,
        limits: WebSocketLimits = WebSocketLimits()
    ) -> WebSocketError? {
        do {
            _ = try events(bytes, role: role, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    /// The error the frame parser alone raises on `bytes` at an endpoint of `role`, or nil if it accepts them.
    static func parserError(
        _ bytes: [UInt8],
        role: WebSocketRole,
        limits: WebSocketLimits = WebSocketLimits()
    ) -> WebSocketError? {
        var parser = WebSocketFrameParser(role: role, limits: limits)
        parser.append(contentsOf: bytes)
        do {
            while try parser.nextFrame() != nil {}
            return nil
        } catch {
            return error
        }
    }

    /// A server-to-client (unmasked) frame with a short payload.
    static func unmasked(_ firstByte: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [firstByte, UInt8(payload.count)] + payload
    }

    /// A client-to-server frame with a short payload, masked with the RFC's key.
    static func masked(_ firstByte: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let frame = WebSocketFrameEncoder.encode(
            WebSocketFrame(opcode: .binary, payload: payload),
            maskingKey: rfcMaskingKey
        )
        return [firstByte] + frame.dropFirst()
    }

    /// A close frame's payload: the code, big-endian, then the reason bytes.
    static func closePayload(_ code: UInt16, _ reason: [UInt8] = []) -> [UInt8] {
        [UInt8(code >> 8), UInt8(code & 0xFF)] + reason
    }
}
