import FTWBus
import FTWCrypto
import FTWFixtures
import FTWNoise
import Testing

/// The handshake's rules beyond the vectors: sizes, the production prologue, refusing weak keys, and surviving
/// other phones' replies in a shared relay room.
@Suite struct HandshakeTests {
    /// X25519 points whose shared secret with any key is all zeros.
    static let lowOrderPoints: [[UInt8]] = [
        [UInt8](repeating: 0, count: 32),
        [1] + [UInt8](repeating: 0, count: 31),
    ]

    @Test(arguments: [(0, 96), (5, 101), (16, 112)])
    func message1GrowsWithThePayloadAndRoundTrips(payloadSize: Int, expectedSize: Int) throws {
        let pairing = Pairing()
        var app = try pairing.initiator()
        var box = try pairing.responder()
        let payload = [UInt8](repeating: 0x42, count: payloadSize)
        let message1 = try app.writeMessage1(payload: payload)
        #expect(message1.count == expectedSize)
        let (received, appKey) = try box.readMessage1(message1)
        #expect(received == payload)
        #expect(appKey == (try X25519.publicKey(privateKey: pairing.appStatic)))
        let reply = try box.writeMessage2(payload: [])
        #expect(reply.message.count == NoiseHandshake.minimumMessage2Size)
        let (boxPayload, session) = try app.readMessage2(reply.message)
        #expect(boxPayload.isEmpty)
        var appSession = session
        var boxSession = reply.session
        #expect(appSession.handshakeHash == boxSession.handshakeHash)
        #expect(try boxSession.open(appSession.seal(payload)) == payload)
        #expect(try appSession.open(boxSession.seal([7])) == [7])
    }

    @Test func theProductionPrologueIsTheTagAndTheBoxKey() throws {
        let key = [UInt8](repeating: 0x97, count: 32)
        let prologue = NoiseHandshake.productionPrologue(boxStaticPublicKey: key)
        #expect(prologue.count == 47)
        #expect(String(decoding: prologue.prefix(15), as: UTF8.self) == "ftw.session.v1:")
        #expect(Array(prologue.suffix(32)) == key)
    }

    @Test func anotherPhonesReplyLeavesTheHandshakeReadyForItsOwn() throws {
        let pairing = Pairing()
        var app = try pairing.initiator()
        var otherApp = try pairing.initiator()
        var box = try pairing.responder()
        var boxForOther = try pairing.responder()
        _ = try box.readMessage1(app.writeMessage1(payload: []))
        _ = try boxForOther.readMessage1(otherApp.writeMessage1(payload: []))
        let othersReply = try boxForOther.writeMessage2(payload: []).message
        let hashBefore = app.handshakeHash
        #expect(errorCode { _ = try app.readMessage2(othersReply) } == .authenticationFailed)
        #expect(app.handshakeHash == hashBefore)
        let (message2, boxSession) = try box.writeMessage2(payload: [])
        let appSession = try app.readMessage2(message2).session
        #expect(appSession.handshakeHash == boxSession.handshakeHash)
    }

    @Test func aSpoiledReplyKeepsTheCiphersFailureAsTheCause() throws {
        let pairing = Pairing()
        var app = try pairing.initiator()
        var box = try pairing.responder()
        _ = try box.readMessage1(app.writeMessage1(payload: []))
        var reply = try box.writeMessage2(payload: []).message
        reply[reply.count - 1] ^= 0x01
        let error = #expect(throws: NoiseError.self) { _ = try app.readMessage2(reply) }
        #expect((error?.cause as? CryptoError)?.code == .authenticationFailed)
    }

    @Test func aSpoiledVectorMessage2FailsAndTheGenuineOneStillFinishes() throws {
        let vectors = try WebAppVectors()
        var app = try vectors.initiator()
        _ = try app.writeMessage1(payload: vectors.handshake("message1Payload"))
        var spoiled = try vectors.handshake("message2")
        spoiled[40] ^= 0x80
        #expect(errorCode { _ = try app.readMessage2(spoiled) } == .authenticationFailed)
        #expect(errorCode { _ = try app.readMessage2(Array(spoiled.prefix(47))) } == .malformed)
        let session = try app.readMessage2(vectors.handshake("message2")).session
        #expect(session.handshakeHash == (try vectors.handshake("handshakeHash")))
    }

    @Test(arguments: lowOrderPoints)
    func aLowOrderEphemeralInMessage1IsRefused(point: [UInt8]) throws {
        let vectors = try WebAppVectors()
        var box = try vectors.responder()
        let genuine = try vectors.handshake("message1")
        #expect(errorCode { _ = try box.readMessage1(point + genuine.dropFirst(32)) } == .weakKey)
        #expect(try box.readMessage1(genuine).payload == Array("pair=QR-8842".utf8))
    }

    @Test(arguments: lowOrderPoints)
    func aLowOrderEphemeralInMessage2IsRefused(point: [UInt8]) throws {
        let vectors = try WebAppVectors()
        var app = try vectors.initiator()
        _ = try app.writeMessage1(payload: vectors.handshake("message1Payload"))
        let genuine = try vectors.handshake("message2")
        #expect(errorCode { _ = try app.readMessage2(point + genuine.dropFirst(32)) } == .weakKey)
        #expect(try app.readMessage2(genuine).payload == Array("boot=ok".utf8))
    }

    @Test(arguments: lowOrderPoints)
    func aLowOrderBoxKeyIsRefusedBeforeAnythingIsSent(point: [UInt8]) throws {
        var app = try NoiseHandshake.initiator(
            staticPrivateKey: X25519.generatePrivateKey(),
            remoteStaticPublicKey: point,
            prologue: []
        )
        #expect(errorCode { _ = try app.writeMessage1(payload: []) } == .weakKey)
    }

    @Test func aMessage1ForAnotherBoxOrPrologueIsNotMine() throws {
        let pairing = Pairing()
        var app = try pairing.initiator()
        let message1 = try app.writeMessage1(payload: [])
        var otherBox = try Pairing().responder()
        #expect(errorCode { _ = try otherBox.readMessage1(message1) } == .authenticationFailed)
        var boxWithOtherPrologue = try NoiseHandshake.responder(staticPrivateKey: pairing.boxStatic, prologue: [1])
        #expect(errorCode { _ = try boxWithOtherPrologue.readMessage1(message1) } == .authenticationFailed)
        var box = try pairing.responder()
        #expect(errorCode { _ = try box.readMessage1(Array(message1.prefix(95))) } == .malformed)
        #expect(try box.readMessage1(message1).payload == [])
    }

    @Test func stepsOutOfTurnAreRefused() throws {
        let pairing = Pairing()
        var app = try pairing.initiator()
        var box = try pairing.responder()
        #expect(errorCode { _ = try app.readMessage2([UInt8](repeating: 1, count: 48)) } == .wrongState)
        #expect(errorCode { _ = try app.readMessage1([UInt8](repeating: 1, count: 96)) } == .wrongState)
        #expect(errorCode { _ = try box.writeMessage1(payload: []) } == .wrongState)
        #expect(errorCode { _ = try box.writeMessage2(payload: []) } == .wrongState)
        let message1 = try app.writeMessage1(payload: [])
        #expect(errorCode { _ = try app.writeMessage1(payload: []) } == .wrongState)
        _ = try box.readMessage1(message1)
        #expect(errorCode { _ = try box.readMessage1(message1) } == .wrongState)
        let message2 = try box.writeMessage2(payload: []).message
        #expect(errorCode { _ = try box.writeMessage2(payload: []) } == .wrongState)
        _ = try app.readMessage2(message2)
        #expect(errorCode { _ = try app.readMessage2(message2) } == .wrongState)
    }

    @Test func keysOfTheWrongSizeAreRefused() {
        let key = [UInt8](repeating: 9, count: 32)
        #expect(
            errorCode {
                _ = try NoiseHandshake.initiator(staticPrivateKey: [1], remoteStaticPublicKey: key, prologue: [])
            }
                == .invalidKey
        )
        #expect(
            errorCode {
                _ = try NoiseHandshake.initiator(staticPrivateKey: key, remoteStaticPublicKey: key + [0], prologue: [])
            } == .invalidKey
        )
        #expect(
            errorCode {
                _ = try NoiseHandshake.responder(staticPrivateKey: key, prologue: [], ephemeralPrivateKey: [1, 2])
            } == .invalidKey
        )
    }

    @Test func eachHandshakeDrawsAFreshEphemeral() throws {
        let pairing = Pairing()
        var first = try pairing.initiator()
        var second = try pairing.initiator()
        #expect(try first.writeMessage1(payload: []).prefix(32) != second.writeMessage1(payload: []).prefix(32))
    }
}
