import FuzzSupport
import Noise

/// libFuzzer's entry: a mode byte, then that mode's script or bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNoise(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    switch input.choice(below: 4) {
    case 0: WindowScript.run(&input)
    case 1: TransportScript.run(&input)
    case 2: HandshakeTarget.readMessage1(input.rest())
    default: HandshakeTarget.readMessage2(input.rest())
    }
    return 0
}

/// The replay window against a plain model of its rule: a number is fresh when it was never accepted and is
/// fewer than 64 behind the newest accepted.
struct WindowModel {
    private(set) var accepted: Set<UInt64> = []
    private(set) var newest: UInt64?

    func isFresh(_ sequence: UInt64) -> Bool {
        guard let newest, sequence <= newest else { return true }
        return newest - sequence < ReplayWindow.width && !accepted.contains(sequence)
    }

    mutating func accept(_ sequence: UInt64) {
        accepted.insert(sequence)
        newest = max(newest ?? sequence, sequence)
    }

    /// A sequence number near the newest (where the window's edges are) or anywhere, from the next input bytes.
    func pick(_ input: inout FuzzInput) -> UInt64 {
        let base = newest ?? 0
        switch input.choice(below: 4) {
        case 0: return input.uint64()
        case 1: return base &+ UInt64(input.byte())
        case 2: return base &- UInt64(input.byte())
        default: return UInt64.max &- UInt64(input.byte())
        }
    }
}

/// `ReplayWindow` alone: every answer must match the model's.
enum WindowScript {
    static func run(_ input: inout FuzzInput) {
        var window = ReplayWindow()
        var model = WindowModel()
        while !input.isAtEnd {
            let sequence = model.pick(&input)
            let expected = model.isFresh(sequence)
            FuzzCheck.require(window.isFresh(sequence) == expected, "isFresh(\(sequence)) disagrees with the model")
            FuzzCheck.require(window.accept(sequence) == expected, "accept(\(sequence)) disagrees with the model")
            if expected { model.accept(sequence) }
            FuzzCheck.require(window.newest == model.newest, "the window's newest drifted from the model's")
        }
    }
}
