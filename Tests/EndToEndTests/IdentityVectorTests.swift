import FTWBoxProtocol
import FTWClient
import FTWClockSeam
import FTWClockSeamTesting
import FTWFixtures
import FTWHeadlessTooling
import FTWSealInterface
import FTWSession
import Foundation
import Testing

/// The phone app's identity vectors (protocol.md §9.4), read through what `ftw-headless` uses: the enrolment link
/// parser, the device id, and the relay dialer's room path.
@Suite struct IdentityVectorTests {
    private static func enrolment() throws -> [String: String] {
        let json = try Vectors.json("identity-vectors.json")
        return try #require(json["enrollment"] as? [String: String])
    }

    @Test func theVectorsLinkParsesIntoItsKeyCodeHintAndSecret() throws {
        let vector = try Self.enrolment()
        let text = try #require(vector["url"])
        let link = try EnrolmentURL(parsing: text)
        #expect(Vectors.hex(link.boxStaticPublicKey) == vector["boxNoisePublic"])
        #expect(Vectors.hex(link.pairingCode) == vector["pairingCode"])
        #expect(link.lanHint == vector["lanHint"])
        #expect(Vectors.hex(link.rendezvousSecret) == vector["rendezvousSecret"])
        #expect(link.site.rawValue == vector["siteId"])
        #expect(link.site.rawValue.prefix(6).uppercased() == vector["fingerprint"])
    }

    @Test func theDeviceIdIsTheFirstEightCharactersOfTheKeyInBase64URL() throws {
        let vector = try Self.enrolment()
        let keyHex = try #require(vector["boxNoisePublic"])
        let key = try #require(Vectors.bytes(hex: keyHex))
        #expect(DeviceID(publicKey: key).rawValue == vector["deviceIdOnBox"])
    }

    @Test func theDialerJoinsTheVectorsRoomForEachEpoch() throws {
        let json = try Vectors.json("identity-vectors.json")
        let rendezvous = try #require(json["rendezvous"] as? [String: Any])
        let secretHex = try #require(rendezvous["secret"] as? String)
        let secret = try #require(Vectors.bytes(hex: secretHex))
        let handles = try #require(rendezvous["handles"] as? [String: String])
        #expect(handles.count == 3)
        for (epochText, handle) in handles {
            let epoch = try #require(Int64(epochText))
            let wallClock = ManualClock(originMs: epoch * 3_600_000 + 1_234)
            let dialer = RelayDialer(
                host: "127.0.0.1",
                port: 8787,
                rendezvousSecret: secret,
                clock: wallClock,
                wallClock: wallClock
            )
            #expect(dialer.path == "/r/\(epoch)/\(handle)/app")
        }
    }

    private static let key = "l_dPuPIqti5g-dclg1qSiuERd18csBM3VgMSDBWcuAc"
    private static let code = "ASNFZ4mrze8BI0VniavN7w"
    private static let hint = "MTkyLjE2OC4xLjIwOjgwODA"
    private static let secret = "ERERERERERERERERERERERERERERERERERERERERERE"

    /// The vector's link, with another head (scheme, host, path, version) or other segments.
    private static func link(
        _ head: String = "https://app.ftw.energy/p#v2",
        _ segments: [String] = [key, code, hint, secret]
    ) -> String {
        ([head] + segments).joined(separator: ".")
    }

    @Test func theVectorsLinkIsTheLinkTheseTestsChange() throws {
        #expect(Self.link() == (try Self.enrolment())["url"])
    }

    @Test func aLinkFromANewerVersionIsRefusedSayingSo() throws {
        let error = try #require(throws: EnrolmentError.self) {
            try EnrolmentURL(parsing: Self.link("https://app.ftw.energy/p#v3"))
        }
        #expect(error.code == .unknownVersion)
        #expect(error.message.contains("v3 is newer than this app understands (v2)"))
    }

    static let malformedLinks: [(String, EnrolmentError.Code)] = [
        (link("http://app.ftw.energy/p#v2"), .notAnEnrolmentLink),
        (link("https://evil.example/p#v2"), .notAnEnrolmentLink),
        (link("https://app.ftw.energy/q#v2"), .notAnEnrolmentLink),
        (link("https://app.ftw.energy/p#v1", [key, code, secret]), .unknownVersion),
        (link("https://app.ftw.energy/p#V2"), .unknownVersion),
        (link("https://app.ftw.energy/p#", [key, code, hint, secret]), .unknownVersion),
        (link(segments: [key, code, hint, secret, "AA"]), .segmentCount),
        (link(segments: [key, code, secret]), .segmentCount),
        (link(segments: [key.replacingOccurrences(of: "-", with: "+"), code, hint, secret]), .badSegment),
        (link(segments: [key + "=", code, hint, secret]), .badSegment),
        (link(segments: [String(key.dropLast()) + "d", code, hint, secret]), .badSegment),
        (link(segments: [String(key.dropLast()), code, hint, secret]), .badLength),
        (link(segments: [key, String(code.prefix(20)), hint, secret]), .badLength),
        (link(segments: [key, code, "IA", secret]), .badLANHint),
        (link(segments: [key, code, String(repeating: "QUFB", count: 22), secret]), .badLANHint),
        (link(segments: [key, code, hint, "ERER"]), .badLength),
    ]

    @Test(arguments: malformedLinks)
    func aMalformedLinkIsRefusedNamingWhatIsWrong(text: String, code: EnrolmentError.Code) throws {
        let error = try #require(throws: EnrolmentError.self) { try EnrolmentURL(parsing: text) }
        #expect(error.code == code, "\(text): \(error.message)")
    }

    @Test func anEmptyLANHintIsAllowed() throws {
        let link = try EnrolmentURL(parsing: Self.link(segments: [Self.key, Self.code, "", Self.secret]))
        #expect(link.lanHint.isEmpty)
    }

    private static func link(segments: [String]) -> String {
        link("https://app.ftw.energy/p#v2", segments)
    }
}
