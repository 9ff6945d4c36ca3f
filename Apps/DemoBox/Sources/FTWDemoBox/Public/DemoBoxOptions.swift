import FTWBus
public import FTWNoise

/// The `ftw-demobox` command line, read into the knobs it sets: kept in the library so every refusal is tested.
public struct DemoBoxOptions: Sendable, Hashable {
    /// What `--help` prints.
    public static let usage = """
        usage: ftw-demobox [--port N] [--state DIR] [--tls] [--publish HH:MM] [--prices-late] [--latency MS]
                           [--no-prefs] [--epoch-ms MS] [--rotation-spread DURATION] [--relay-beat DURATION]
                           [--relay-beat-phase DURATION]
          --port N         the relay's port on 127.0.0.1 (default 8787; 0 picks a free one)
          --state DIR      keep the box's keys and enrolled phones in DIR, so a known phone reconnects
          --tls            serve the relay over wss:// with a CA and certificate kept in the --state DIR
          --publish HH:MM  local time tomorrow's prices appear (default 13:00)
          --prices-late    tomorrow's prices never appear today
          --latency MS     the relay's delay each way, in milliseconds
          --no-prefs       GET /api/planner/preferences answers E_UNKNOWN_OP, like a real box
          --epoch-ms MS    the relay's epoch in milliseconds (default 3600000, an hour, as the real relay's)
          --rotation-spread DURATION
                           how long after an epoch begins the relay has moved every old room to it, as 300ms,
                           20s or 5m (default 5m, as the real relay's); shorter than the epoch. A phone must be
                           given the same epoch and spread.
          --relay-beat DURATION
                           the relay's heartbeat, on which it moves an old room: at the first beat at or after the
                           room's offset (default 15s, as the real relay's; at most 15s, 0ms moves each room at its
                           offset exactly); with the spread, shorter than the epoch
          --relay-beat-phase DURATION
                           how far past each multiple of the beat (in Unix time) the beats fall (default: drawn at
                           random on each start, as a relay process's start sets it)
        """

    /// The relay's port.
    public var port = 8787
    /// Where the state file lives; nil keeps nothing.
    public var stateFolder: String?
    /// Whether the relay serves `wss://` (its CA and certificate live in ``stateFolder``).
    public var servesTLS = false
    /// Hour of the price publication, local.
    public var publishHour = 13
    /// Minute of the price publication.
    public var publishMinute = 0
    /// Tomorrow's prices never appear today.
    public var pricesLate = false
    /// The relay's delay each way, in ms.
    public var latencyMs = 0
    /// Whether the demo-only planner preferences route exists.
    public var servesPlannerPrefs = true
    /// The relay's epochs and the spread of its turn.
    public var relaySchedule = RelaySchedule.production
    /// The relay's heartbeat, in ms.
    public var relayBeatMs = RelaySchedule.beatMs
    /// Where the relay's beats fall, in ms past each multiple of the beat; nil draws one at random on each start.
    public var relayBeatPhaseMs: Int64?
    /// `--help` was asked for.
    public var showsHelp = false

    /// The defaults.
    public init() {}

    /// Reads `arguments` (without the program name).
    ///
    /// - Throws: ``DemoBoxError`` `.badArgument` for an unknown flag, a missing value, or a value out of range.
    public static func parse(_ arguments: [String]) throws(DemoBoxError) -> DemoBoxOptions {
        var options = DemoBoxOptions()
        var epochMs = RelaySchedule.production.epochMs
        var spreadMs = RelaySchedule.production.rotationSpreadMs
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            switch flag {
            case "--port": options.port = try number(flag, rest.popFirst(), in: 0...65535)
            case "--state": options.stateFolder = try value(flag, rest.popFirst())
            case "--tls": options.servesTLS = true
            case "--publish": (options.publishHour, options.publishMinute) = try time(flag, rest.popFirst())
            case "--prices-late": options.pricesLate = true
            case "--latency": options.latencyMs = try number(flag, rest.popFirst(), in: 0...60_000)
            case "--no-prefs": options.servesPlannerPrefs = false
            case "--epoch-ms": epochMs = Int64(try number(flag, rest.popFirst(), in: 1_000...86_400_000))
            case "--rotation-spread": spreadMs = try duration(flag, rest.popFirst())
            case "--relay-beat": options.relayBeatMs = try duration(flag, rest.popFirst())
            case "--relay-beat-phase": options.relayBeatPhaseMs = try duration(flag, rest.popFirst())
            case "--help", "-h": options.showsHelp = true
            default: throw DemoBoxError(.badArgument, "unknown argument \(flag)\n\(usage)")
            }
        }
        guard let schedule = RelaySchedule(epochMs: epochMs, rotationSpreadMs: spreadMs) else {
            throw DemoBoxError(
                .badArgument,
                "--rotation-spread (\(spreadMs) ms) must be shorter than the relay's epoch (\(epochMs) ms)"
            )
        }
        options.relaySchedule = schedule
        guard options.relayBeatMs <= RelaySchedule.beatMs else {
            throw DemoBoxError(
                .badArgument,
                "--relay-beat (\(options.relayBeatMs) ms) must be at most the real relay's \(RelaySchedule.beatMs) ms,"
                    + " the longest a phone waits past a room's offset"
            )
        }
        if let phaseMs = options.relayBeatPhaseMs, options.relayBeatMs > 0, phaseMs >= options.relayBeatMs {
            throw DemoBoxError(
                .badArgument,
                "--relay-beat-phase (\(phaseMs) ms) must be shorter than the beat (\(options.relayBeatMs) ms): a beat"
                    + " falls once in each"
            )
        }
        guard spreadMs + options.relayBeatMs < epochMs else {
            throw DemoBoxError(
                .badArgument,
                "--relay-beat (\(options.relayBeatMs) ms) plus --rotation-spread (\(spreadMs) ms) must be shorter than"
                    + " the relay's epoch (\(epochMs) ms), so every old room is moved inside it"
            )
        }
        guard !options.servesTLS || options.stateFolder != nil else {
            throw DemoBoxError(.badArgument, "--tls needs --state DIR, where the box keeps its CA and certificate")
        }
        return options
    }

    /// What `ftw-demobox` says at start when its relay's hours are not the production relay's, so a person knows to
    /// give the phone the same; nil when they are.
    public var relayScheduleNote: String? {
        guard relaySchedule != .production else { return nil }
        return "relay epochs: \(relaySchedule.epochMs) ms, old rooms moved within \(relaySchedule.rotationSpreadMs) ms "
            + "of each epoch's start"
    }

    /// What `ftw-demobox` says at start when its relay's beat was set, so a person knows when its old rooms move;
    /// nil when it was not (production's, at a random phase).
    ///
    /// - Parameter beat: The beat the relay runs, with its phase drawn.
    public func relayBeatNote(_ beat: RelayBeat) -> String? {
        guard relayBeatMs != RelaySchedule.beatMs || relayBeatPhaseMs != nil else { return nil }
        guard beat.periodMs > 0 else { return "relay beat: none, old rooms moved at their offsets exactly" }
        return "relay beat: every \(beat.periodMs) ms, \(beat.phaseMs) ms past each multiple of it"
    }

    /// The box's configuration for these options, with its keys and the phones it already knows; the relay's beat
    /// takes the phase asked for, or one drawn at random, as each start of a relay process sets its own.
    public func configuration(identity: DemoBoxIdentity, devices: [EnrolledDevice]) -> DemoBoxConfiguration {
        var configuration = DemoBoxConfiguration()
        let phaseMs = relayBeatPhaseMs ?? Int64.random(in: 0..<max(1, relayBeatMs))
        configuration.relayBeat = RelayBeat(periodMs: relayBeatMs, phaseMs: phaseMs) ?? .production
        configuration.pricePublish = (publishHour, publishMinute)
        configuration.pricesLate = pricesLate
        configuration.relayLatency = .milliseconds(latencyMs)
        configuration.servesPlannerPrefs = servesPlannerPrefs
        configuration.relaySchedule = relaySchedule
        configuration.identity = identity
        configuration.enrolledDevices = devices
        return configuration
    }

    private static func value(_ flag: String, _ value: String?) throws(DemoBoxError) -> String {
        guard let value, !value.hasPrefix("--") else { throw DemoBoxError(.badArgument, "\(flag) needs a value") }
        return value
    }

    private static func number(
        _ flag: String,
        _ text: String?,
        in range: ClosedRange<Int>
    ) throws(DemoBoxError)
        -> Int
    {
        let text = try value(flag, text)
        guard let number = Int(text), range.contains(number) else {
            throw DemoBoxError(.badArgument, "\(flag) takes a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }

    /// A duration as `300ms`, `20s` or `5m`, in ms: at most a day.
    private static func duration(_ flag: String, _ text: String?) throws(DemoBoxError) -> Int64 {
        let text = try value(flag, text)
        let units: [(suffix: String, ms: Int64)] = [("ms", 1), ("s", 1_000), ("m", 60_000)]
        guard let unit = units.first(where: { text.hasSuffix($0.suffix) }),
            let count = Int64(text.dropLast(unit.suffix.count)), count >= 0, count <= 86_400_000 / unit.ms
        else { throw DemoBoxError(.badArgument, "\(flag) takes a duration such as 300ms, 20s or 5m, not '\(text)'") }
        return count * unit.ms
    }

    private static func time(_ flag: String, _ text: String?) throws(DemoBoxError) -> (Int, Int) {
        let parts = try value(flag, text).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2, let hour = Int(parts[0]),
            let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute)
        else { throw DemoBoxError(.badArgument, "\(flag) takes a local time as HH:MM") }
        return (hour, minute)
    }
}
