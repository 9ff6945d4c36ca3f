import FTWBus
import FTWFuzzSupport
import FTWNoise

/// Two ends of one transport direction under a fixed key, driven by the input: seal, deliver (again, late, or
/// changed), deliver raw bytes, or jump the sender's sequence number.
///
/// Checked: an authentic message opens to its frame exactly when the window model says it is fresh; a changed or
/// made-up message is refused as not authentic and moves no window; sealing stops before the last nonce.
enum TransportScript {
    static let key = [UInt8](repeating: 0x42, count: 32)

    static func run(_ input: inout FuzzInput) {
        var sender = NoiseTransport(key: key)
        var receiver = NoiseTransport(key: key)
        var model = WindowModel()
        var sent: [(sequence: UInt64, frame: [UInt8], wire: [UInt8])] = []
        while !input.isAtEnd {
            switch input.choice(below: 5) {
            case 0:
                let frame = input.take(input.choice(below: 64))
                let sequence = sender.nextSequence
                do {
                    sent.append((sequence, frame, try sender.seal(frame)))
                } catch {
                    FuzzCheck.require(sequence == .max && error.code == .nonceExhausted, "seal failed: \(error)")
                }
            case 1:
                guard !sent.isEmpty else { continue }
                let message = sent[input.choice(below: sent.count)]
                deliver(message, to: &receiver, model: &model)
            case 2:
                guard !sent.isEmpty else { continue }
                var wire = sent[input.choice(below: sent.count)].wire
                wire[input.choice(below: wire.count)] ^= 1 << UInt8(input.choice(below: 8))
                refuse(wire, by: &receiver)
            case 3:
                let wire = input.take(input.choice(below: 96))
                guard !sent.contains(where: { $0.wire == wire }) else { continue }
                refuse(wire, by: &receiver)
            default:
                sender = NoiseTransport(key: key, nextSequence: model.pick(&input))
            }
        }
    }

    static func deliver(
        _ message: (sequence: UInt64, frame: [UInt8], wire: [UInt8]),
        to receiver: inout NoiseTransport,
        model: inout WindowModel
    ) {
        let fresh = model.isFresh(message.sequence)
        do {
            let frame = try receiver.open(message.wire)
            FuzzCheck.require(fresh, "a replay of \(message.sequence) opened")
            FuzzCheck.require(frame == message.frame, "message \(message.sequence) opened to another frame")
            model.accept(message.sequence)
        } catch {
            FuzzCheck.require(!fresh && error.code == .replay, "fresh message \(message.sequence) refused: \(error)")
        }
        FuzzCheck.require(receiver.window.newest == model.newest, "the receiver's window drifted from the model's")
    }

    static func refuse(_ wire: [UInt8], by receiver: inout NoiseTransport) {
        let before = receiver.window
        do {
            _ = try receiver.open(wire)
            FuzzCheck.fail("a changed or made-up message opened")
        } catch {
            FuzzCheck.require(
                error.code == .authenticationFailed || error.code == .malformed,
                "wrong refusal: \(error)"
            )
        }
        FuzzCheck.require(receiver.window == before, "a refused message moved the window")
    }
}
