import FTWFuzzSupport
import FTWNoise

/// The two handshake messages a peer sends, read by the side that receives them, with the keys of the web client's
/// vectors (so the vectors' messages are seeds that complete).
enum HandshakeTarget {
    static let prologue = hex("66747731")
    static let initiatorStatic = hex("a1a1a1a1a1a1a1a1b2b2b2b2b2b2b2b2c3c3c3c3c3c3c3c3d4d4d4d4d4d4d4d4")
    static let initiatorEphemeral = hex("1111111111111111222222222222222233333333333333334444444444444444")
    static let responderStatic = hex("5f5f5f5f5f5f5f5f6060606060606060717171717171717182828282828282f2")
    static let responderStaticPublic = hex("97f74fb8f22ab62e60f9d725835a928ae111775f1cb013375603120c159cb807")
    static let message1Payload = hex("706169723d51522d38383432")

    /// The box's side: any bytes as message 1. Only a real message 1 may complete, and then the reply is written.
    static func readMessage1(_ bytes: [UInt8]) {
        guard
            var responder = try? NoiseHandshake.responder(staticPrivateKey: responderStatic, prologue: prologue),
            (try? responder.readMessage1(bytes)) != nil
        else { return }
        FuzzCheck.require((try? responder.writeMessage2(payload: [])) != nil, "no reply after a message 1 that read")
    }

    /// The app's side after sending the vectors' message 1: any bytes as message 2.
    static func readMessage2(_ bytes: [UInt8]) {
        guard
            var initiator = try? NoiseHandshake.initiator(
                staticPrivateKey: initiatorStatic,
                remoteStaticPublicKey: responderStaticPublic,
                prologue: prologue,
                ephemeralPrivateKey: initiatorEphemeral
            ),
            (try? initiator.writeMessage1(payload: message1Payload)) != nil
        else { FuzzCheck.fail("the vectors' initiator cannot write message 1") }
        _ = try? initiator.readMessage2(bytes)
    }

    private static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }
}
