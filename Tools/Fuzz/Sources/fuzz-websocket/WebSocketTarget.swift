import FTWFuzzSupport
import FTWWebSocket

/// libFuzzer's entry: a mode byte, then bytes off the wire.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocket(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    WebSocketTarget.run(&input)
    return 0
}

/// What a WebSocket endpoint reads from its peer: frames (as a client or as a server) and the opening handshake.
enum WebSocketTarget {
    static func run(_ input: inout FuzzInput) {
        switch input.choice(below: 4) {
        case 0: FrameStream.check(&input, role: .client)
        case 1: FrameStream.check(&input, role: .server)
        case 2: _ = try? WebSocketHandshake.validateRequest(input.rest())
        default: _ = try? WebSocketHandshake.validateResponse(input.rest(), key: "dGhlIHNhbXBsZSBub25jZQ==")
        }
    }
}
