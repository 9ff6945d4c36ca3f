import FTWSeal
import FTWSealInterface
import Foundation
import Testing

/// A site id is 16 lowercase hex digits, derived from the box's key the way the reference app derives it.
@Suite struct SiteIDTests {
    @Test func theBoxKeyVectorGivesItsSiteID() {
        let boxKey = hexBytes("97f74fb8f22ab62e60f9d725835a928ae111775f1cb013375603120c159cb807")
        #expect(SiteID.derived(fromBoxKey: boxKey).rawValue == "deb7e3fa44c17f16")
    }

    @Test(arguments: [
        "", "0123456789abcde", "0123456789abcdef0", "0123456789ABCDEF", "0123456789abcdeg", "é123456789abcde",
    ])
    func textThatIsNoSiteIDIsRefused(text: String) {
        #expect(SiteID(rawValue: text) == nil)
    }

    @Test func aSiteIDCodesAsItsText() throws {
        let data = try JSONEncoder().encode(SealHarness.siteA)
        #expect(String(decoding: data, as: UTF8.self) == "\"0123456789abcdef\"")
        #expect(try JSONDecoder().decode(SiteID.self, from: data) == SealHarness.siteA)
    }

    @Test func decodingTextThatIsNoSiteIDThrows() {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(SiteID.self, from: Data("\"ring/../x\"".utf8)) }
    }

    private func hexBytes(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8)
        return stride(from: 0, to: digits.count, by: 2).compactMap {
            UInt8(String(decoding: digits[$0...($0 + 1)], as: UTF8.self), radix: 16)
        }
    }
}
