import FTWFuzzSupport
import FTWWebSocket

/// The frame parser and the message assembler over one stream, as a connection reads it.
///
/// The same bytes are read twice: all at once, and in pieces as TCP might deliver them. Both readings must agree
/// frame for frame and fail the same way, every frame must respect the limits, and each frame must re-encode and
/// parse back to itself.
enum FrameStream {
    static func check(_ input: inout FuzzInput, role: WebSocketRole) {
        let small = input.byte() & 1 == 1
        let limits =
            small ? WebSocketLimits(maxMessageSize: 300, maxFrameSize: 200) : WebSocketLimits()
        let piece = 1 + input.choice(below: 32)
        let bytes = input.rest()
        let whole = read([bytes[...]], role: role, limits: limits)
        let pieces = stride(from: 0, to: bytes.count, by: piece).map { bytes[$0..<min($0 + piece, bytes.count)] }
        FuzzCheck.require(read(pieces, role: role, limits: limits) == whole, "reading in pieces changed the outcome")
        for frame in whole.frames {
            FuzzCheck.require(frame.payload.count <= limits.maxFrameSize, "a frame over the limit was returned")
            FuzzCheck.require(
                !frame.opcode.isControl || frame.payload.count <= 125,
                "a long control frame was returned"
            )
            let key: UInt32? = role == .server ? 0x1234_5678 : nil
            var parser = WebSocketFrameParser(role: role, limits: WebSocketLimits())
            parser.append(contentsOf: WebSocketFrameEncoder.encode(frame, maskingKey: key))
            let again = try? parser.nextFrame()
            FuzzCheck.require(again == frame || frame.opcode == .continuation, "a frame does not survive its encoder")
        }
    }

    static func read(_ pieces: [ArraySlice<UInt8>], role: WebSocketRole, limits: WebSocketLimits) -> StreamOutcome {
        var parser = WebSocketFrameParser(role: role, limits: limits)
        var assembler = WebSocketMessageAssembler()
        var outcome = StreamOutcome()
        do {
            for piece in pieces {
                parser.append(contentsOf: piece)
                while let frame = try parser.nextFrame() {
                    outcome.frames.append(frame)
                    if let event = try assembler.consume(frame) { outcome.events.append(event) }
                }
            }
        } catch {
            outcome.failure = error
        }
        return outcome
    }
}
