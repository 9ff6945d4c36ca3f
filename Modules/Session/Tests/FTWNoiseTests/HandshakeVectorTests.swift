import FTWFixtures
import FTWNoise
import Testing

/// The handshake of webapp-vectors.json, byte for byte from both sides: the box and the web client agree with us
/// only if these do.
@Suite struct HandshakeVectorTests {
    private let vectors: WebAppVectors

    init() throws {
        vectors = try WebAppVectors()
    }

    @Test func theAppWritesTheVectorMessage1() throws {
        var app = try vectors.initiator()
        let message1 = try app.writeMessage1(payload: vectors.handshake("message1Payload"))
        #expect(message1.count == 108)
        #expect(Vectors.hex(message1) == Vectors.hex(try vectors.handshake("message1")))
    }

    @Test func theAppReadsTheVectorMessage2AndReachesTheVectorHash() throws {
        var app = try vectors.initiator()
        _ = try app.writeMessage1(payload: vectors.handshake("message1Payload"))
        let (payload, session) = try app.readMessage2(vectors.handshake("message2"))
        #expect(String(decoding: payload, as: UTF8.self) == "boot=ok")
        #expect(Vectors.hex(session.handshakeHash) == Vectors.hex(try vectors.handshake("handshakeHash")))
        #expect(app.handshakeHash == session.handshakeHash)
    }

    @Test func theBoxReadsTheVectorMessage1AndLearnsTheAppsKey() throws {
        var box = try vectors.responder()
        let (payload, remoteStatic) = try box.readMessage1(vectors.handshake("message1"))
        #expect(String(decoding: payload, as: UTF8.self) == "pair=QR-8842")
        #expect(Vectors.hex(remoteStatic) == Vectors.hex(try vectors.handshake("initiatorStaticPublic")))
    }

    @Test func theBoxWritesTheVectorMessage2AndReachesTheVectorHash() throws {
        var box = try vectors.responder()
        _ = try box.readMessage1(vectors.handshake("message1"))
        let (message2, session) = try box.writeMessage2(payload: vectors.handshake("message2Payload"))
        #expect(message2.count == 55)
        #expect(Vectors.hex(message2) == Vectors.hex(try vectors.handshake("message2")))
        #expect(Vectors.hex(session.handshakeHash) == Vectors.hex(try vectors.handshake("handshakeHash")))
    }
}
