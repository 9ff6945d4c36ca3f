import FTWBoxProtocol
import FTWCache
import FTWClient
import FTWClockSeam
import FTWDemoBox
import FTWNoise
import FTWSessionInterface
import Foundation

/// Reads the scenario format: one or more steps a line, separated by `;`, with `#` comments.
///
/// ```
/// # second-open-tour: open the battery, background, open again, kill, open straight into it
/// date 2026-12-02
/// timezone Europe/Stockholm
/// seed 3
/// relay beat 15s at 10:00:14
/// at 10:01:00 launch; inactive; active; view now; view battery
/// wait 10s; background; wait 30s
/// inactive; active; wait 10s
/// kill
/// launch; inactive; active; view battery
/// box cut; box latency 120ms; box prices-late on; box quiet sungrow on
/// box update 2.1; box fail chargers timeout once; relay rotate; relay skew 1; relay slow-down; relay restart
/// network change
/// at 11:00:00.250 command mode self_consumption
/// wait 3d
/// ```
///
/// Every mistake is reported with its line number and what was expected, never guessed around.
public enum ScenarioParser {
    /// The most steps a scenario holds: far beyond any day a person writes, and a bound on the work a file costs.
    public static let maxSteps = 10_000
    /// The longest scenario text: 1 MiB, far beyond ``maxSteps`` steps of plain writing, so that the work and
    /// memory a stray large input costs are bounded before any of it is read.
    public static let maxBytes = 1 << 20
    /// The longest simulated span of a scenario, from its start to the end of its last wait: 31 days, so a return
    /// after a week's holiday is an ordinary scenario, and a slip of the finger (`wait 100000h`) is refused before it
    /// keeps the clock running for years.
    public static let maxSpan = Duration.seconds(31 * 86_400)

    /// Parses a whole file, in time linear in its length.
    ///
    /// - Throws: `ScenarioError` naming the first line that does not read, or the line that passes a bound.
    public static func parse(_ text: String) throws(ScenarioError) -> Scenario {
        guard text.utf8.count <= maxBytes else {
            throw ScenarioError(
                line: 1,
                "the scenario is larger than \(maxBytes / 1024) KiB; a scenario is at most that"
            )
        }
        var settings = ScenarioSettings()
        var lines: [Scenario.Line] = []
        var span = ScenarioSpan()
        var lastAt: Int64 = -1
        // Lines, comments and segments are cut on their ASCII bytes, in one pass each. A CRLF pair is one Character
        // in Swift, so cutting Characters on "\n" read a CRLF file as one line; cut on bytes, the CR left at a line's
        // end is whitespace like any other.
        let rawLines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (index, rawLine) in rawLines.enumerated() {
            let number = index + 1
            let content = rawLine.split(separator: UInt8(ascii: "#"), maxSplits: 1, omittingEmptySubsequences: false)
            for segmentBytes in content.first?.split(separator: UInt8(ascii: ";")) ?? [] {
                let segment = Substring(segmentBytes)
                // Words past what the step bound leaves room for stay unsplit: a line of many `at`s costs no more
                // than the bound, however long it is.
                let room = maxSteps - lines.count
                let words = segment.split(maxSplits: 2 * room + 6, whereSeparator: \.isWhitespace).map(String.init)
                guard !words.isEmpty else { continue }
                if try applyHeader(words, to: &settings, line: number, afterSteps: !lines.isEmpty) { continue }
                for step in try steps(words, line: number, upTo: room + 1) {
                    guard lines.count < maxSteps else {
                        throw ScenarioError(
                            line: number,
                            "more than \(maxSteps) steps; a scenario has at most \(maxSteps)"
                        )
                    }
                    if case .at(let time) = step {
                        guard time >= lastAt else {
                            throw ScenarioError(line: number, "'at' goes back in time; times must not decrease")
                        }
                        lastAt = time
                    }
                    try span.add(step, line: number)
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
        let relayBeat = words[0] == "relay" && words.count > 1 && words[1] == "beat"
        guard relayBeat || ["date", "timezone", "policy", "prefs", "seed"].contains(words[0]) else { return false }
        guard !afterSteps else {
            throw ScenarioError(
                line: line,
                "'\(words.prefix(relayBeat ? 2 : 1).joined(separator: " "))' belongs before the first step"
            )
        }
        if relayBeat {
            (settings.relayBeatMs, settings.relayBeatAtMs) = try Self.relayBeat(words.dropFirst(2), line: line)
            return true
        }
        let value = try single(words, line: line)
        switch words[0] {
        case "date":
            guard value.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil else {
                throw ScenarioError(line: line, "a date is written YYYY-MM-DD, not '\(value)'")
            }
            guard CalendarDay(value) != nil else {
                throw ScenarioError(line: line, CalendarDay.refusal(of: value))
            }
            settings.date = value
        case "timezone":
            guard TimeZone(identifier: value) != nil else {
                throw ScenarioError(line: line, "unknown time zone '\(value)'")
            }
            settings.timeZone = value
        case "prefs":
            settings.plannerPrefs = try onOff(value, line: line)
        case "seed":
            guard let seed = UInt64(value) else {
                throw ScenarioError(line: line, "a seed is a whole number from 0 to \(UInt64.max), not '\(value)'")
            }
            settings.seed = seed
        default:
            switch value {
            case "age-keyed": settings.policy = .ageKeyed
            case "every-return": settings.policy = .everyReturn
            default: throw ScenarioError(line: line, "a policy is 'age-keyed' or 'every-return', not '\(value)'")
            }
        }
        return true
    }

    /// The first `limit` steps of one segment: any number of `at TIME`, then at most one other step, read in one
    /// pass (re-slicing the words after each `at` made a line of many `at`s quadratic).
    private static func steps(_ words: [String], line: Int, upTo limit: Int) throws(ScenarioError) -> [ScenarioStep] {
        var steps: [ScenarioStep] = []
        var next = 0
        while steps.count < limit, next < words.count, words[next] == "at" {
            guard next + 1 < words.count else { throw ScenarioError(line: line, "'at' needs a time such as 10:01:00") }
            steps.append(.at(timeOfDayMs: try timeOfDay(words[next + 1], line: line)))
            next += 2
        }
        if steps.count < limit, next < words.count { steps.append(try step(Array(words[next...]), line: line)) }
        return steps
    }

    private static func step(_ words: [String], line: Int) throws(ScenarioError) -> ScenarioStep {
        switch words[0] {
        case "look":
            guard words.count == 1 else { throw ScenarioError(line: line, "'look' takes no argument") }
            return .look
        case "device": return .box(try deviceKnob(Array(words.dropFirst()), line: line))
        case "launch", "kill", "active", "inactive", "background":
            guard words.count == 1 else { throw ScenarioError(line: line, "'\(words[0])' takes no argument") }
            return lifecycle(words[0])
        case "view", "show": return .show(try view(words, line: line))
        case "leave", "hide": return .hide(try view(words, line: line))
        case "refresh": return .refresh(try view(words, line: line))
        case "wait": return .wait(try duration(try single(words, line: line), line: line))
        case "box": return .box(try knob(Array(words.dropFirst()), line: line))
        case "relay": return .relay(try relayKnob(Array(words.dropFirst()), line: line))
        case "command": return .command(try command(Array(words.dropFirst()), line: line))
        case "network":
            guard words.count == 2, words[1] == "change" else {
                throw ScenarioError(line: line, "the network's step is 'network change'")
            }
            return .networkChange
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
        case ("quiet", 3):
            return .deviceQuiet(source: try device(words[1], line: line), try onOff(words[2], line: line))
        case ("cut", 1): return .cutCarriers
        case ("silent", 1): return .silent(nil)
        case ("silent", 2) where words[1] == "off": return .silentOff
        case ("silent", 2): return .silent(try duration(words[1], line: line))
        case ("latency", 2): return .relayLatency(try duration(words[1], line: line))
        case ("reboot", 1): return .reboot
        case ("update", 2): return .update(build: try build(words[1], line: line))
        case ("fail", 3), ("fail", 4): return try readFault(Array(words.dropFirst()), line: line)
        default:
            throw ScenarioError(
                line: line,
                "a box knob is 'prices-late on|off', 'publish HH:MM', 'quiet SOURCE on|off', 'cut', "
                    + "'silent [DURATION|off]', "
                    + "'latency DURATION', 'reboot', 'update BUILD' or 'fail READ KIND [once|always]'"
            )
        }
    }

    /// `quiet FIELD [on|off]`: the device behind a field of the box's dictionary stops (or starts again) answering.
    private static func deviceKnob(_ words: [String], line: Int) throws(ScenarioError) -> BoxKnob {
        guard words.first == "quiet", (2...3).contains(words.count) else {
            throw ScenarioError(line: line, "a device step is 'device quiet FIELD [on|off]'")
        }
        guard let source = SimulatedBox.source(ofFieldNamed: words[1]) else {
            let known = SimulatedBox.fieldsWithSources.joined(separator: ", ")
            throw ScenarioError(
                line: line,
                "no device answers for field '\(words[1])'; fields with a device are \(known)"
            )
        }
        return .deviceQuiet(source: source, words.count == 3 ? try onOff(words[2], line: line) : true)
    }

    /// A build as `hello_ok.box.build` carries it: 1 to 64 printable ASCII characters.
    private static func build(_ word: String, line: Int) throws(ScenarioError) -> String {
        guard (1...64).contains(word.utf8.count), word.utf8.allSatisfy({ (0x21...0x7e).contains($0) }) else {
            throw ScenarioError(line: line, "a build is 1 to 64 printable ASCII characters, not '\(word)'")
        }
        return word
    }

    /// `READ timeout|busy|malformed|refused|denied [once|always]`, or `READ off`.
    private static func readFault(_ words: [String], line: Int) throws(ScenarioError) -> BoxKnob {
        guard let read = BoxRead(rawValue: words[0]) else {
            let known = BoxRead.allCases.map(\.rawValue).joined(separator: ", ")
            throw ScenarioError(line: line, "unknown read '\(words[0])'; reads are \(known)")
        }
        if words[1] == "off", words.count == 2 { return .stopFailing(read) }
        guard let kind = ReadFault.Kind(rawValue: words[1]) else {
            throw ScenarioError(
                line: line,
                "a read fails by timeout, busy, malformed, refused or denied (or 'off' lifts it), not '\(words[1])'"
            )
        }
        switch words.count == 3 ? words[2] : "once" {
        case "once": return .failRead(ReadFault(read: read, kind: kind, always: false))
        case "always": return .failRead(ReadFault(read: read, kind: kind, always: true))
        default: throw ScenarioError(line: line, "a read fails 'once' or 'always', not '\(words[2])'")
        }
    }

    /// `DURATION` or `DURATION at TIME`: the relay's heartbeat, at most the production relay's 15 s (a phone waits no
    /// longer past a room's offset), and a time of day one of its beats falls at.
    private static func relayBeat(
        _ words: ArraySlice<String>,
        line: Int
    ) throws(ScenarioError) -> (periodMs: Int64, atMs: Int64?) {
        guard let first = words.first, words.count == 1 || (words.count == 3 && words[words.startIndex + 1] == "at")
        else {
            throw ScenarioError(
                line: line,
                "the relay's beat is written 'relay beat 15s' or 'relay beat 15s at 10:00:14'"
            )
        }
        let periodMs = try duration(first, line: line).wholeMilliseconds
        guard periodMs <= RelaySchedule.beatMs else {
            throw ScenarioError(
                line: line,
                "the relay's beat is at most \(RelaySchedule.beatMs / 1000)s, the real relay's, not '\(first)'"
            )
        }
        let atMs = words.count == 3 ? try timeOfDay(words[words.startIndex + 2], line: line) : nil
        return (periodMs, atMs)
    }

    private static func relayKnob(_ words: [String], line: Int) throws(ScenarioError) -> RelayKnob {
        switch (words.first, words.count) {
        case ("rotate", 1): return .rotate
        case ("slow-down", 1): return .slowDown
        case ("restart", 1): return .restart
        case ("skew", 2):
            guard let hours = Int(words[1]), (-24...24).contains(hours) else {
                throw ScenarioError(line: line, "the relay's skew is whole hours from -24 to 24, not '\(words[1])'")
            }
            return .skew(hours: hours)
        default:
            throw ScenarioError(
                line: line,
                "a relay word is 'rotate', 'skew HOURS', 'slow-down' or 'restart'"
            )
        }
    }

    private static func command(_ words: [String], line: Int) throws(ScenarioError) -> PersonCommand {
        switch (words.first, words.count) {
        case ("mode", 2):
            let mode = ModeKey(rawValue: words[1])
            guard ModeKey.all.contains(mode) else {
                let known = ModeKey.all.map(\.rawValue).joined(separator: ", ")
                throw ScenarioError(line: line, "unknown mode '\(words[1])'; modes are \(known)")
            }
            return .mode(mode)
        case ("hold", 2) where words[1] == "off": return .releaseHold
        case ("hold", 2): return .hold(watts: try watts(words[1], line: line), for: nil)
        case ("hold", 4) where words[2] == "for":
            return .hold(watts: try watts(words[1], line: line), for: try duration(words[3], line: line))
        case ("boost", 2) where words[1] == "off": return .cancelBoost
        case ("boost", 2): return .boost(try duration(words[1], line: line))
        default:
            throw ScenarioError(
                line: line,
                "a command is 'mode MODE', 'hold WATTS [for DURATION]', 'hold off', 'boost DURATION' or 'boost off'"
            )
        }
    }

    private static func watts(_ word: String, line: Int) throws(ScenarioError) -> Int {
        guard let watts = Int(word), (0...1_000_000).contains(watts) else {
            throw ScenarioError(line: line, "a power is whole watts from 0 to 1000000, not '\(word)'")
        }
        return watts
    }

    private static func single(_ words: [String], line: Int) throws(ScenarioError) -> String {
        guard words.count == 2 else { throw ScenarioError(line: line, "'\(words[0])' takes exactly one argument") }
        return words[1]
    }

    private static func device(_ word: String, line: Int) throws(ScenarioError) -> String {
        guard SimulatedBox.sources.contains(word) else {
            throw ScenarioError(
                line: line,
                "unknown device '\(word)'; devices are \(SimulatedBox.sources.joined(separator: ", "))"
            )
        }
        return word
    }

    private static func onOff(_ word: String, line: Int) throws(ScenarioError) -> Bool {
        switch word {
        case "on": return true
        case "off": return false
        default: throw ScenarioError(line: line, "expected 'on' or 'off', not '\(word)'")
        }
    }

    /// `HH:MM`, `HH:MM:SS` or `HH:MM:SS.mmm` (one to three digits of a second), as milliseconds after midnight.
    static func timeOfDay(_ text: String, line: Int) throws(ScenarioError) -> Int64 {
        let malformed = ScenarioError(line: line, "a time is written HH:MM, HH:MM:SS or HH:MM:SS.mmm, not '\(text)'")
        let whole = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let parts = whole[0].split(separator: ":", omittingEmptySubsequences: false).map(digits)
        guard (2...3).contains(parts.count), let hours = parts[0], let minutes = parts[1],
            let seconds = parts.count == 3 ? parts[2] : 0,
            (0..<24).contains(hours), (0..<60).contains(minutes), (0..<60).contains(seconds)
        else { throw malformed }
        var milliseconds: Int64 = 0
        if whole.count == 2 {
            guard parts.count == 3, (1...3).contains(whole[1].count), let fraction = digits(whole[1]) else {
                throw malformed
            }
            milliseconds = fraction * [100, 10, 1][whole[1].count - 1]
        }
        return ((hours * 60 + minutes) * 60 + seconds) * 1000 + milliseconds
    }

    /// One to eight ASCII digits as a number; nil for anything else (a sign, a non-ASCII digit, too many).
    private static func digits(_ text: Substring) -> Int64? {
        guard (1...8).contains(text.utf8.count), text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Int64(text)
    }

    /// A duration such as `500ms`, `5s`, `2m`, `1h`, `3d` or `1m30s`: ASCII digits, each unit at most once and
    /// from days down to milliseconds.
    ///
    /// Read by hand in one pass: a regular expression cost half a millisecond a line. A number whose milliseconds do
    /// not fit an `Int64` is refused rather than trapped on or read as zero.
    static func duration(_ text: String, line: Int) throws(ScenarioError) -> Duration {
        let malformed = ScenarioError(
            line: line,
            "a duration is written like 500ms, 5s, 2m, 1h, 3d or 1m30s, not '\(text)'"
        )
        var rest = Substring(text).utf8
        var total: Int64 = 0
        var lastUnitMs = Int64.max
        guard !rest.isEmpty else { throw malformed }
        while !rest.isEmpty {
            let digits = rest.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            rest = rest.dropFirst(digits.count)
            guard !digits.isEmpty, let (unitMs, unitLength) = unit(leading: rest), unitMs < lastUnitMs else {
                throw malformed
            }
            rest = rest.dropFirst(unitLength)
            lastUnitMs = unitMs
            guard let count = Int64(String(decoding: digits, as: UTF8.self)),
                case let (milliseconds, false) = count.multipliedReportingOverflow(by: unitMs),
                case let (sum, false) = total.addingReportingOverflow(milliseconds)
            else { throw ScenarioError(line: line, "the duration '\(text)' is too long") }
            total = sum
        }
        return .milliseconds(total)
    }

    /// The unit a duration's number is followed by: its milliseconds and how many bytes it is written in.
    private static func unit(leading text: Substring.UTF8View) -> (ms: Int64, length: Int)? {
        if text.starts(with: "ms".utf8) { return (1, 2) }
        switch text.first {
        case UInt8(ascii: "d"): return (86_400_000, 1)
        case UInt8(ascii: "h"): return (3_600_000, 1)
        case UInt8(ascii: "m"): return (60_000, 1)
        case UInt8(ascii: "s"): return (1_000, 1)
        default: return nil
        }
    }
}
