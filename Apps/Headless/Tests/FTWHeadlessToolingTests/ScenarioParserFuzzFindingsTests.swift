import FTWHeadlessTooling
import Testing

/// Inputs `fuzz-scenario` (Tools/Fuzz) found: each once trapped the parser or read as a wrong value.
@Suite struct ScenarioParserFuzzFindingsTests {
    @Test(
        arguments: [
            "wait 4187659681844312291s",  // seconds × 1000 overflowed Int64: a trap
            "wait 2562047788015216h",  // hours × 3 600 000 overflowed
            "wait 9223372036854775807ms1s",  // the sum overflowed
            "wait 99999999999999999999s",  // too long for Int64: read as zero seconds
            "wait ٣s",  // an Arabic-Indic digit matched `\d` and read as zero
        ]
    )
    func aDurationThatDoesNotFitIsRefusedOnItsLine(text: String) {
        let error = #expect(throws: ScenarioError.self) { try ScenarioParser.parse("launch\n" + text) }
        #expect(error?.line == 2)
    }

    @Test func theLongestDurationThatFitsIsRefusedByTheSpanBound() throws {
        let error = #expect(throws: ScenarioError.self) { try ScenarioParser.parse("wait 9223372036854775807ms") }
        #expect(error?.message.hasSuffix("a scenario spans at most 31 days") == true)
        #expect(try ScenarioParser.parse("wait 2678400000ms").steps == [.wait(.seconds(31 * 86_400))])
    }
}
