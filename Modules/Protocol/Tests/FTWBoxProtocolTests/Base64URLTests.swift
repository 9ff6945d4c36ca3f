import FTWBoxProtocol
import Testing

/// The enrolment link's encoding, both ways: what the box writes, the app reads back, and nothing looser.
@Suite struct Base64URLTests {
    @Test(arguments: [0, 1, 2, 3, 16, 31, 32, 33])
    func everyLengthComesBackAsItWent(count: Int) {
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 251) }
        let text = Base64URL.encode(bytes)
        #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
        #expect(Base64URL.decode(text) == bytes)
    }

    @Test func theAlphabetsLastTwoAreDashAndUnderscore() {
        #expect(Base64URL.encode([0xfb, 0xff]) == "-_8")
    }

    @Test(arguments: ["AA==", "+/8", "A", "AB", "-_9", "Zm9v YmFy"])
    func whatNoBoxWritesIsRefused(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test func aDeviceIsTheFirstEightCharactersOfItsKey() {
        let key = [UInt8](repeating: 0xfb, count: 32)
        #expect(DeviceID(publicKey: key).rawValue == "-_v7-_v7")
    }
}
