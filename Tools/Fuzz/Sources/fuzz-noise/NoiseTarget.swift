import FTWFuzzSupport
import FTWNoise

/// libFuzzer's entry: a mode byte, then that mode's script or bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNoise(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    NoiseTarget.run(&input)
    return 0
}

/// What the Noise module reads from a peer: transport messages (and the replay window behind them) and the two
/// handshake messages.
enum NoiseTarget {
    static func run(_ input: inout FuzzInput) {
        switch input.choice(below: 4) {
        case 0: WindowScript.run(&input)
        case 1: TransportScript.run(&input)
        case 2: HandshakeTarget.readMessage1(input.rest())
        default: HandshakeTarget.readMessage2(input.rest())
        }
    }
}
