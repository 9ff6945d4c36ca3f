import Cache
import FTWClient
import Foundation
import SessionInterface

/// Reads the scenario format: one or more steps a line, separated by `;`, with `#` comments.
///
/// ```
/// # second-open-tour: open the battery, background, open again, kill, open straight into it
/// date 2026-12-02
/// timezone Europe/Stockholm
/// at 10:01:00 launch; inactive; active; view now; view battery
/// wait 10s; background; wait 30s
/// inactive; active; wait 10s
/// kill
/// launch; inactive; active; view battery
/// box cut; box latency 120ms; box prices-late on; box quiet meter.p1 on
/// ```
///
/// Every mistake is reported with its line number and what was expected, never guessed around.
public enum ScenarioParser {
    /// Parses a whole file.
    ///
    /// - Throws: `ScenarioError` naming the first line that does not read.
    public static func parse(_ text: String) throws(ScenarioError) -> Scenario {
        var settings = ScenarioSettings()
        var lines: [Scenario.Line] = []
        var lastAt: Int64 = -1
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let content = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            for segment in content.split(separator: ";") {
                let words = segment.split(whereSeparator: \.isWhitespace).map(String.init)
                guard !words.isEmpty else { continue }
                if try applyHeader(words, to: &settings, line: number, afterSteps: !lines.isEmpty) { continue }
                for step in try steps(words, line: number) {
                    if case .at(let time) = step {
                        guard time >= lastAt else {
                            throw ScenarioError(line: number, "'at' goes back in time; times must not decrease")
                        }
                        lastAt = time
                    }
                    lines.append(Scenario.Line(step: step, number: number))
                }
            }
        }
        guard !lines.isEmpty else { throw ScenarioError(line: 1, "the scenario has no steps") }
        return Scenario(settings: settings, lines: lines)
    }

    private static func applyHeader(
        _ words: [String],
        to settings: inout ScenarioSettings,
        line: Int,
        afterSteps: Bool
    ) throws(ScenarioError) -> Bool {
        guard ["date", "timezone", "policy"].contains(words[0]) else { return false }
        guard !afterSteps else { throw ScenarioError(line: line, "'\(words[0])' belongs before the first step") }
        let value = try single(words, line: line)
        switch words[0] {
        case "date":
            guard value.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil else {
                throw ScenarioError(line: line, "a date is written YYYY-MM-DD, not '\(value)'")
            }
            settings.date = value
        case "timezone":
            guard TimeZone(identifier: value) != nil else {
                throw ScenarioError(line: line, "unknown time zone '\(value)'")
            }
            settings.timeZone = value
        default:
            switch value {
            case "age-keyed": settings.policy = .ageKeyed
            case "every-return": settings.policy = .everyReturn
            default: throw ScenarioError(line: line, "a policy is 'age-keyed' or 'every-return', not '\(value)'")
            }
        }
        return true
    }

    private static func steps(_ words: [String], line: Int) throws(ScenarioError) -> [ScenarioStep] {
        switch words[0] {
        case "at":
            guard words.count >= 2 else { throw ScenarioError(line: line, "'at' needs a time such as 10:01:00") }
            let at = ScenarioStep.at(timeOfDayMs: try timeOfDay(words[1], line: line))
            return words.count > 2 ? [at] + (try steps(Array(words.dropFirst(2)), line: line)) : [at]
        case "launch", "kill", "active", "inactive", "background":
            guard words.count == 1 else { throw ScenarioError(line: line, "'\(words[0])' takes no argument") }
            return [lifecycle(words[0])]
        case "view", "show": return [.show(try view(words, line: line))]
        case "leave", "hide": return [.hide(try view(words, line: line))]
        case "refresh": return [.refresh(try view(words, line: line))]
        case "wait": return [.wait(try duration(try single(words, line: line), line: line))]
        case "box": return [.box(try knob(Array(words.dropFirst()), line: line))]
        default: throw ScenarioError(line: line, "unknown step '\(words[0])'")
        }
    }

    private static func lifecycle(_ word: String) -> ScenarioStep {
        switch word {
        case "launch": .launch
        case "kill": .kill
        case "active": .phase(.active)
        case "inactive": .phase(.inactive)
        default: .phase(.background)
        }
    }

    private static func view(_ words: [String], line: Int) throws(ScenarioError) -> ViewName {
        let name = try single(words, line: line)
        guard let view = ViewName(rawValue: name) else {
            let known = ViewName.allCases.map(\.rawValue).joined(separator: ", ")
            throw ScenarioError(line: line, "unknown view '\(name)'; views are \(known)")
        }
        return view
    }

    private static func knob(_ words: [String], line: Int) throws(ScenarioError) -> BoxKnob {
        switch (words.first, words.count) {
        case ("prices-late", 2): return .pricesLate(try onOff(words[1], line: line))
        case ("publish", 2): return .publishAt(minutes: Int(try timeOfDay(words[1], line: line) / 60_000))
        case ("quiet", 3): return .deviceQuiet(source: words[1], try onOff(words[2], line: line))
        case ("cut", 1): return .cutCarriers
        case ("latency", 2): return .relayLatency(try duration(words[1], line: line))
        case ("reboot", 1): return .reboot
        default:
            throw ScenarioError(
                line: line,
                "a box knob is 'prices-late on|off', 'publish HH:MM', 'quiet SOURCE on|off', 'cut', "
                    + "'latency DURATION' or 'reboot'"
            )
        }
    }

    private static func single(_ words: [String], line: Int) throws(ScenarioError) -> String {
        guard words.count == 2 else { throw ScenarioError(line: line, "'\(words[0])' takes exactly one argument") }
        return words[1]
    }

    private static func onOff(_ word: String, line: Int) throws(ScenarioError) -> Bool {
        switch word {
        case "on": return true
        case "off": return false
        default: throw ScenarioError(line: line, "expected 'on' or 'off', not '\(word)'")
        }
    }

    /// `HH:MM` or `HH:MM:SS`, as milliseconds after midnight.
    static func timeOfDay(_ text: String, line: Int) throws(ScenarioError) -> Int64 {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Int64($0) }
        guard (2...3).contains(parts.count), let hours = parts[0], let minutes = parts[1],
            let seconds = parts.count == 3 ? parts[2] : 0,
            (0..<24).contains(hours), (0..<60).contains(minutes), (0..<60).contains(seconds)
        else { throw ScenarioError(line: line, "a time is written HH:MM or HH:MM:SS, not '\(text)'") }
        return ((hours * 60 + minutes) * 60 + seconds) * 1000
    }

    /// A duration such as `500ms`, `5s`, `2m`, `1h` or `1m30s`.
    ///
    /// Digits are ASCII only (`\d` also takes other scripts' digits, which `Int64` cannot read), and a number whose
    /// milliseconds do not fit an `Int64` is refused rather than trapped on or read as zero.
    static func duration(_ text: String, line: Int) throws(ScenarioError) -> Duration {
        guard let match = text.wholeMatch(of: /(([0-9]+)h)?(([0-9]+)m(?!s))?(([0-9]+)s)?(([0-9]+)ms)?/), !text.isEmpty
        else {
            throw ScenarioError(line: line, "a duration is written like 500ms, 5s, 2m, 1h or 1m30s, not '\(text)'")
        }
        let parts: [(digits: Substring?, unitMs: Int64)] = [
            (match.2, 3_600_000), (match.4, 60_000), (match.6, 1_000), (match.8, 1),
        ]
        var total: Int64 = 0
        for part in parts {
            guard let digits = part.digits else { continue }
            guard let count = Int64(digits),
                case let (milliseconds, false) = count.multipliedReportingOverflow(by: part.unitMs),
                case let (sum, false) = total.addingReportingOverflow(milliseconds)
            else { throw ScenarioError(line: line, "the duration '\(text)' is too long") }
            total = sum
        }
        return .milliseconds(total)
    }
}
