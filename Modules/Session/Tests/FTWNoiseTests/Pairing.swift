import FTWCrypto
import FTWNoise

/// A fresh app and box, with random static keys, and the handshake between them as production runs it (production
/// prologue, random ephemerals).
struct Pairing {
    let appStatic = X25519.generatePrivateKey()
    let boxStatic = X25519.generatePrivateKey()

    var boxStaticPublic: [UInt8] {
        get throws { try X25519.publicKey(privateKey: boxStatic) }
    }

    /// The app's side, aimed at this box.
    func initiator() throws -> NoiseHandshake {
        try NoiseHandshake.initiator(
            staticPrivateKey: appStatic,
            remoteStaticPublicKey: boxStaticPublic,
            prologue: NoiseHandshake.productionPrologue(boxStaticPublicKey: boxStaticPublic)
        )
    }

    /// The box's side.
    func responder() throws -> NoiseHandshake {
        try NoiseHandshake.responder(
            staticPrivateKey: boxStatic,
            prologue: NoiseHandshake.productionPrologue(boxStaticPublicKey: boxStaticPublic)
        )
    }

    /// Both sessions after a full handshake with an empty payload each way.
    func sessions() throws -> (app: NoiseSession, box: NoiseSession) {
        var app = try initiator()
        var box = try responder()
        _ = try box.readMessage1(app.writeMessage1(payload: []))
        let reply = try box.writeMessage2(payload: [])
        return (try app.readMessage2(reply.message).session, reply.session)
    }
}
