import FTWFixtures
import FTWNoise
import Testing

/// The `handshake`, `frames` and `transport` sections of webapp-vectors.json, as bytes, plus the handshakes and
/// sessions they describe.
struct WebAppVectors {
    /// One `transport` entry: `from` sealed `frame` at `seq`, giving `wire`.
    struct Step: CustomTestStringConvertible {
        let fromApp: Bool
        let frame: String
        let sequence: UInt64
        let wire: [UInt8]

        var testDescription: String { "\(fromApp ? "app" : "box") \(frame) seq \(sequence)" }
    }

    private let handshake: [String: Any]
    let frames: [String: [UInt8]]
    let transport: [Step]

    init() throws {
        let json = try Vectors.json("webapp-vectors.json")
        handshake = try #require(json["handshake"] as? [String: Any])
        let frameList = try #require(json["frames"] as? [[String: Any]])
        frames = try Dictionary(
            uniqueKeysWithValues: frameList.map { entry in
                (try #require(entry["name"] as? String), try Self.bytes(entry["bytes"]))
            }
        )
        let steps = try #require(json["transport"] as? [[String: Any]])
        transport = try steps.map { entry in
            Step(
                fromApp: try #require(entry["from"] as? String) == "app",
                frame: try #require(entry["frame"] as? String),
                sequence: UInt64(try #require(entry["seq"] as? Int)),
                wire: try Self.bytes(entry["wire"])
            )
        }
    }

    /// The bytes of the hex field `name` of the `handshake` section.
    func handshake(_ name: String) throws -> [UInt8] {
        try Self.bytes(handshake[name])
    }

    /// The app's side with the vectors' fixed keys.
    func initiator() throws -> NoiseHandshake {
        try NoiseHandshake.initiator(
            staticPrivateKey: handshake("initiatorStatic"),
            remoteStaticPublicKey: handshake("responderStaticPublic"),
            prologue: handshake("prologue"),
            ephemeralPrivateKey: handshake("initiatorEphemeral")
        )
    }

    /// The box's side with the vectors' fixed keys.
    func responder() throws -> NoiseHandshake {
        try NoiseHandshake.responder(
            staticPrivateKey: handshake("responderStatic"),
            prologue: handshake("prologue"),
            ephemeralPrivateKey: handshake("responderEphemeral")
        )
    }

    /// Both sessions after the vectors' handshake, run through this module.
    func sessions() throws -> (app: NoiseSession, box: NoiseSession) {
        var app = try initiator()
        var box = try responder()
        _ = try box.readMessage1(app.writeMessage1(payload: handshake("message1Payload")))
        let reply = try box.writeMessage2(payload: handshake("message2Payload"))
        return (try app.readMessage2(reply.message).session, reply.session)
    }

    private static func bytes(_ value: Any?) throws -> [UInt8] {
        let hex = try #require(value as? String)
        return try #require(Vectors.bytes(hex: hex))
    }
}
