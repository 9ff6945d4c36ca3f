import FTWFixtures
import FTWNoise
import Foundation

/// `ftw-bench noise`: a whole Noise IK handshake, both sides, through `NoiseHandshake`, against the same
/// libcrypto calls made bare (``BareNoise``: the same key imports, exchanges, AEAD, hashes and HMACs) in the same
/// run; both run the keys of `webapp-vectors.json` and must reproduce its messages byte for byte.
///
/// `ftw-bench noise handshake <n>` and `ftw-bench noise bare <n>` run only one side's loop, for
/// `valgrind --tool=callgrind`.
enum NoiseBenchmark {
    /// The handshake section of `webapp-vectors.json`, as bytes.
    struct Keys {
        let prologue: [UInt8]
        let initiatorStatic: [UInt8]
        let initiatorEphemeral: [UInt8]
        let responderStatic: [UInt8]
        let responderStaticPublic: [UInt8]
        let responderEphemeral: [UInt8]
        let message1Payload: [UInt8]
        let message2Payload: [UInt8]
        let message1: [UInt8]
        let message2: [UInt8]
        let handshakeHash: [UInt8]

        init?() {
            guard let json = try? Vectors.json("webapp-vectors.json"),
                let section = json["handshake"] as? [String: String]
            else { return nil }
            func bytes(_ name: String) -> [UInt8] { section[name].flatMap(Vectors.bytes(hex:)) ?? [] }
            prologue = bytes("prologue")
            initiatorStatic = bytes("initiatorStatic")
            initiatorEphemeral = bytes("initiatorEphemeral")
            responderStatic = bytes("responderStatic")
            responderStaticPublic = bytes("responderStaticPublic")
            responderEphemeral = bytes("responderEphemeral")
            message1Payload = bytes("message1Payload")
            message2Payload = bytes("message2Payload")
            message1 = bytes("message1")
            message2 = bytes("message2")
            handshakeHash = bytes("handshakeHash")
        }
    }

    /// What one handshake produced, to compare with the vectors.
    struct Transcript: Equatable {
        let message1: [UInt8]
        let message2: [UInt8]
        let handshakeHash: [UInt8]
    }

    private static let handshakes = 200
    private static let rounds = 11

    /// Runs the whole benchmark; `handshake <n>` or `bare <n>` runs only that loop.
    static func run(arguments: [String]) {
        guard let keys = Keys() else {
            print("noise: webapp-vectors.json could not be read")
            return
        }
        let expected = Transcript(message1: keys.message1, message2: keys.message2, handshakeHash: keys.handshakeHash)
        guard handshake(keys) == expected, BareNoise.handshake(keys) == expected else {
            print("noise: a handshake does not reproduce webapp-vectors.json")
            exit(1)
        }
        if let side = arguments.first {
            let count = arguments.dropFirst().first.flatMap { Int($0) } ?? 1
            let body = side == "bare" ? BareNoise.handshake : handshake
            print("noise: \(side), \(loop(count, body, keys)) hash bytes")
            return
        }
        var noise = Duration.seconds(1_000)
        var bare = Duration.seconds(1_000)
        for _ in 0..<rounds {
            noise = min(noise, time { _ = loop(handshakes, handshake, keys) })
            bare = min(bare, time { _ = loop(handshakes, BareNoise.handshake, keys) })
        }
        let noiseMicroseconds = noise / .microseconds(handshakes)
        let bareMicroseconds = bare / .microseconds(handshakes)
        print("noise: IK handshake, both sides, vector keys (best of \(rounds) rounds of \(handshakes))")
        print(String(format: "noise: NoiseHandshake:                  %.1f µs", noiseMicroseconds))
        print(String(format: "noise: libcrypto primitives (baseline): %.1f µs", bareMicroseconds))
        print(String(format: "noise: ratio handshake / primitives: %.2f", noiseMicroseconds / bareMicroseconds))
    }

    /// Both sides of one handshake through `NoiseHandshake`, as the app and the box run it.
    static func handshake(_ keys: Keys) -> Transcript {
        do {
            var app = try NoiseHandshake.initiator(
                staticPrivateKey: keys.initiatorStatic,
                remoteStaticPublicKey: keys.responderStaticPublic,
                prologue: keys.prologue,
                ephemeralPrivateKey: keys.initiatorEphemeral
            )
            var box = try NoiseHandshake.responder(
                staticPrivateKey: keys.responderStatic,
                prologue: keys.prologue,
                ephemeralPrivateKey: keys.responderEphemeral
            )
            let message1 = try app.writeMessage1(payload: keys.message1Payload)
            _ = try box.readMessage1(message1)
            let reply = try box.writeMessage2(payload: keys.message2Payload)
            let (_, session) = try app.readMessage2(reply.message)
            return Transcript(message1: message1, message2: reply.message, handshakeHash: session.handshakeHash)
        } catch {
            preconditionFailure("the vector handshake failed: \(error)")
        }
    }

    @inline(never)
    private static func loop(_ count: Int, _ body: (Keys) -> Transcript, _ keys: Keys) -> Int {
        var total = 0
        for _ in 0..<count { total &+= body(keys).handshakeHash.count }
        return total
    }

    private static func time(_ body: () -> Void) -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        body()
        return start.duration(to: clock.now)
    }
}
