import FTWBus
import FTWCache
import FTWSeal
import FTWSealInterface
import FTWSealTestSupport
import FTWSessionTestSupport
import Testing

/// A model's sealed file that opens but does not read back (an older build's JSON, a newer format, bytes cut short)
/// is never drawn: it is dropped (a newer build's is kept) with one line saying why, and the model asks the box again.
@Suite struct LiveAskSealedFileTests {
    private static let file = "chargers-\(AskWorld.site)"

    /// The contents the chargers model seals after one answer.
    private func sealedAnswer() async -> [UInt8] {
        let world = AskWorld()
        let chargers = world.chargers()
        await world.with([chargers]) { _ in
            chargers.send(.viewAppeared)
            await world.streamReturns()
        }
        return await world.store.keptFile(name: "chargers", site: AskWorld.site) ?? []
    }

    /// Puts `contents` in the chargers' file of a fresh world, restores the model, and says what it drew, what the
    /// store told, whether the file is still there, and how many reads a looking view then sent.
    private func relaunch(with contents: [UInt8]) async -> (drawn: String?, told: [String], kept: Bool, sent: Int) {
        let world = AskWorld()
        try? await world.store.keepFile(name: "chargers", site: AskWorld.site, contents: contents)
        let told = world.seals.subscribe()
        let chargers = world.chargers()
        await chargers.restore()
        let drawn = await chargers.stored?.answer
        let kept = !world.disk.names.isEmpty
        await world.with([chargers]) { _ in
            chargers.send(.viewAppeared)
            await world.streamReturns()
        }
        world.seals.finish()
        let lines = await told.reduce(into: [String]()) { if $1.mustBeTold { $0.append($1.description) } }
        return (drawn, lines, kept, await world.sentCount())
    }

    @Test func aSealedAnswerReadsBackAndAsksNothingWhileItStands() async {
        let relaunched = await relaunch(with: await sealedAnswer())
        #expect(relaunched.drawn == "chargers answered under chargers")
        #expect(relaunched.told.isEmpty)
        #expect(relaunched.sent == 0)
    }

    @Test func anOlderBuildsJSONFileIsDroppedAndAskedAgain() async {
        let json = #"{"stored":{"answer":"old","name":"chargers","askedAtMs":1796205660000}}"#
        let relaunched = await relaunch(with: Array(json.utf8))
        #expect(relaunched.drawn == nil, "never misread")
        #expect(!relaunched.kept)
        #expect(
            relaunched.told == [
                "dropped \(Self.file): it holds an older build's JSON, not format 1; its model starts empty"
            ]
        )
        #expect(relaunched.sent == 1, "the box is asked again")
    }

    /// A newer build's file is kept for that build (issue 32): named with its version, never written over, and the
    /// model asks the box as if it had none.
    @Test func aNewerFormatIsKeptNamedAndAskedAgain() async {
        var contents = await sealedAnswer()
        contents[4] = 2
        let relaunched = await relaunch(with: contents)
        #expect(relaunched.drawn == nil)
        #expect(relaunched.kept)
        #expect(
            relaunched.told.first
                == "could not read \(Self.file), left on disk: \(Self.file) was written by a newer build, in format 2"
                + " (this build reads format 1 and older); it is kept for that build, and its model starts empty"
        )
        #expect(relaunched.sent == 1)
    }

    @Test func everyPrefixOfAFileIsDroppedAndAskedAgain() async {
        let contents = await sealedAnswer()
        #expect(contents.count > 10)
        for length in 0..<contents.count {
            let relaunched = await relaunch(with: Array(contents.prefix(length)))
            #expect(relaunched.drawn == nil, "a file cut to \(length) bytes")
            #expect(!relaunched.kept, "a file cut to \(length) bytes")
            #expect(relaunched.told.count == 1, "a file cut to \(length) bytes")
            #expect(relaunched.sent == 1, "a file cut to \(length) bytes")
        }
    }
}
