import FTWSessionInterface
import Testing

/// The one definition of a stay in front, as the session's asks log and the headless reports count by it.
@Suite struct StaysTests {
    @Test func aStayBeginsAtTheFirstPhaseInFrontAndAGlanceKeepsIt() {
        var stays = Stays()
        #expect(stays.current == 1, "a frame sent before any phase belongs to the first stay")
        #expect(stays.cameToFront() == 1, "inactive on the way in begins the first stay")
        #expect(stays.cameToFront() == nil, "active, then a glance's inactive and active, keep it")
        #expect(stays.cameToFront() == nil)
        #expect(stays.current == 1)
        #expect(stays.left() == 1)
        #expect(stays.left() == nil, "a kill after the background ends nothing more")
        #expect(stays.current == 2, "a frame sent in the background is the next return's cost")
        #expect(stays.cameToFront() == 2)
    }

    @Test func aLookFromTheBackgroundThatNeverBecomesActiveIsAStayOfItsOwn() {
        var stays = Stays()
        _ = stays.cameToFront()
        _ = stays.left()
        #expect(stays.cameToFront() == 2, "inactive alone, as when a notification is pulled down")
        #expect(stays.left() == 2)
        #expect(stays.cameToFront() == 3)
    }

    @Test func aMomentBelongsToTheLastStayThatBeganAtOrBeforeIt() {
        let began: [Int64] = [1_000, 5_000, 5_000, 9_000]
        #expect(Stays.index(atMs: 999, beganAtMs: began) == nil)
        #expect(Stays.index(atMs: 1_000, beganAtMs: began) == 0)
        #expect(Stays.index(atMs: 4_999, beganAtMs: began) == 0, "a frame in flight when the stay ended")
        #expect(Stays.index(atMs: 5_000, beganAtMs: began) == 2, "of two stays begun at once, the later")
        #expect(Stays.index(atMs: 100_000, beganAtMs: began) == 3)
        #expect(Stays.span(of: 0, beganAtMs: began) == 1_000..<5_000)
        #expect(Stays.span(of: 1, beganAtMs: began).isEmpty)
        #expect(Stays.span(of: 3, beganAtMs: began) == 9_000..<Int64.max)
    }
}
