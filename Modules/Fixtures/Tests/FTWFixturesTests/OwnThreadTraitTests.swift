import FTWTestingTraits
import Testing

/// A test marked `.ownThread` computes off the cooperative pool, and what it expects still reports to it.
@Suite struct OwnThreadTraitTests {
    @Test(.ownThread) func aMarkedTestRunsOnAThreadOfItsOwn() {
        #expect(OwnThreadTrait.isCurrentThreadOwn)
    }

    @Test func anUnmarkedTestRunsWhereItWouldHave() {
        #expect(!OwnThreadTrait.isCurrentThreadOwn)
    }

    @Test(.ownThread, arguments: [1, 2]) func eachCaseOfAMarkedTestRunsOnAThreadOfItsOwn(_ number: Int) {
        #expect(OwnThreadTrait.isCurrentThreadOwn)
    }

    @Test(.ownThread) func aFailedExpectationOnTheThreadIsTheTestsOwn() {
        withKnownIssue { #expect(Bool(false), "reported to this test") }
    }
}
