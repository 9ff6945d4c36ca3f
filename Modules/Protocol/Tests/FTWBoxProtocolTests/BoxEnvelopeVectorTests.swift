import FTWBoxProtocol
import FTWFixtures
import Testing

/// `Vectors/box-envelopes.json`: app-to-box envelopes as the reference web client writes them and the box reads
/// them (§9.2).
@Suite struct BoxEnvelopeVectorTests {
    static func vector(_ name: String) throws -> String {
        let envelopes = try #require(try Vectors.json("box-envelopes.json")["envelopes"] as? [String: String])
        return try #require(envelopes[name])
    }

    static let testHello = Hello(app: AppInfo(build: "test", ua: "pwa"), locales: ["sv"])

    @Test(
        arguments: [
            ("hello", Message.hello(testHello), nil),
            ("hello_sub", .hello(Hello(app: testHello.app, locales: ["sv"], sub: Sub(bucket: 512, hz: 1))), nil),
            ("sub", .sub(Sub(bucket: 512, hz: 1)), nil),
            ("plan.get", .planGet, 4),
            (
                "cmd",
                .cmd(
                    Command(
                        cmdId: "0192f2a0-7c1e-7000-8000-0123456789ab",
                        op: .siteModeSet,
                        args: ["mode": "charge"],
                        notValidAfterMs: 200_000,
                        expect: Expect(rev: 7, guards: [Guard(fid: 5, op: .lessThan, value: 900)])
                    )
                ),
                nil
            ),
        ] as [(String, Message, UInt32?)]
    )
    func writesEachEnvelopeByteForByteAndReadsItBack(_ name: String, _ message: Message, _ id: UInt32?) throws {
        let expected = try Self.vector(name)
        #expect(Vectors.hex(message.envelope(id: id).encoded()) == expected)
        let envelope = try Envelope.decode(hex(expected))
        #expect(envelope.id == id)
        #expect(try Message(envelope: envelope) == message)
    }

    @Test func readsAHelloFromTheFutureIgnoringItsUnknownKeys() throws {
        let envelope = try Envelope.decode(hex(try Self.vector("hello_future")))
        let raw = try #require(envelope.body)
        #expect(raw["telepathy"] == true)
        #expect(raw["proto"]?["preferred"] == 3)
        #expect(raw["app"]?["channel"] == "beta")
        let expected = Hello(app: AppInfo(build: "future", ua: "pwa"), locales: ["sv"])
        #expect(try Message(envelope: envelope) == .hello(expected))
    }
}
