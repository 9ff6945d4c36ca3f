import FTWFuzzSupport
import FTWHeadlessTooling

/// libFuzzer's entry: the text of a scenario file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    ScenarioTarget.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// The scenario parser on any text: it reads it or names the line it cannot read, and what it reads keeps the
/// format's promises (steps exist, every step names a line of the file, `at` times never go back).
enum ScenarioTarget {
    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        // Lines end at each LF byte, as the parser counts them (a CRLF pair is one Character, so not Characters).
        let lineCount = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count
        let scenario: Scenario
        do {
            scenario = try ScenarioParser.parse(text)
        } catch {
            FuzzCheck.require((1...max(1, lineCount)).contains(error.line), "an error names line \(error.line)")
            return
        }
        FuzzCheck.require(!scenario.lines.isEmpty, "a scenario without steps was accepted")
        FuzzCheck.require(scenario.lines.count <= ScenarioParser.maxSteps, "more steps than the bound were accepted")
        FuzzCheck.require(scenario.lines.allSatisfy { (1...lineCount).contains($0.number) }, "a step names no line")
        var last: Int64 = -1
        for case .at(let time) in scenario.steps {
            FuzzCheck.require(time >= last && time < 86_400_000, "'at' times go back or leave the day")
            last = time
        }
    }
}
