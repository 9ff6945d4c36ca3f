import FTWBoxProtocol
import Testing

/// A printed message is one short line a person reads in a log: its wire type and what matters of its body, never
/// the body itself.
@Suite struct MessageDescriptionTests {
    @Test(arguments: SampleMessages.all)
    func everyMessagePrintsAsOneShortLineStartingWithItsType(message: Message) {
        let line = "\(message)"
        #expect(line.hasPrefix(message.type))
        #expect(!line.contains("\n"))
        #expect(line.count <= 120, "\(line)")
    }

    @Test func theLargeBodiesPrintTheirCountsNotTheirContents() {
        #expect("\(SampleMessages.helloOK)" == "hello_ok box ftw-7f3a proto 1 mode full, owner, 2 modes, 11 caps")
        #expect("\(SampleMessages.snap)".hasPrefix("snap uptime 86400123 ms, "))
    }
}
