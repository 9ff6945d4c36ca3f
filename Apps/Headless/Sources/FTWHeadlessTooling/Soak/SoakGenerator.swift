import FTWClient
import FTWDemoBox
import FTWSessionInterface

/// Draws a random stretch of life for the soak: a person who glances, backgrounds the app for seconds or hours,
/// kills it, opens and closes views and pulls to refresh, while the box publishes prices early or late, loses its
/// carriers mid-request, reboots, is updated, fails one read, has devices fall quiet, and the relay rotates its
/// epoch, reads the wrong hour, runs out of joins or restarts. The relay's hour turns by itself every simulated hour
/// too (the demo box's relay model), moving the box's room at that hour's offset.
///
/// The scenario is built from the same steps the parser makes, so `ftw-headless run` could play it as a file, and
/// the same seed always draws the same scenario.
struct SoakGenerator {
    /// The local time the soak starts at: early enough that the day turns inside a 24-hour soak.
    static let startTimeOfDayMs: Int64 = 6 * 3_600_000

    private enum Action {
        case wait, glance, background, kill, show, hide, refresh, cut, reboot, quiet, latency, pricesLate, publish
        case update, failRead, rotate, skew, slowDown, restart
    }

    /// The ways a read fails in the soak: each once, so the rules' retry (a new look, a name turn) is what is soaked.
    /// A refusal is left out: it is sealed with the build and asked again only after an update.
    private static let readFaults: [ReadFault.Kind] = [.timeout, .busy, .malformed]
    /// The reads a model asks (hello is the session's, not a model's).
    private static let failingReads: [BoxRead] = [.chargers, .prefs, .plan, .status, .prices, .history]

    private let seed: UInt64
    private let random: SoakRandom
    private let lengthMs: Int64
    private var lines: [Scenario.Line] = []
    private var elapsedMs: Int64 = 0
    private var running = false
    private var inFront = false
    private var openViews: [ViewName] = []
    private var quiet: Set<String> = []
    private var pricesLate = false
    private var updates = 0
    private var relaySkewed = false
    /// When the relay last rotated: at most once an hour, as the real relay turns its epoch (two in one hour would
    /// put it two epochs ahead, which a phone rightly refuses to adopt).
    private var lastRotationMs: Int64?

    /// A generator for `hours` of simulated time from `seed`, which also draws the relay's beat.
    init(seed: UInt64, hours: Double) {
        self.seed = seed
        random = SoakRandom(seed: seed)
        lengthMs = Int64(hours * 3_600_000)
    }

    /// The scenario: default settings (a December day in Stockholm, the age-keyed policy) but for the seed, starting
    /// at 06:00.
    mutating func scenario() -> Scenario {
        add(.at(timeOfDayMs: Self.startTimeOfDayMs))
        launch()
        while elapsedMs < lengthMs {
            if !running {
                wait(random.spread(5_000, 1_800_000))
                launch()
            } else if !inFront {
                wait(random.pick([(6, (10_000, 120_000)), (3, (120_000, 1_800_000)), (1, (1_800_000, 10_800_000))]))
                if random.chance(15) { knob() }
                if random.chance(12) { kill() } else { comeBack() }
            } else {
                act(nextAction())
            }
        }
        var settings = ScenarioSettings()
        settings.seed = seed
        return Scenario(settings: settings, lines: lines)
    }

    private mutating func nextAction() -> Action {
        random.pick([
            (30, .wait), (10, .glance), (12, .background), (3, .kill), (10, .show), (6, .hide), (4, .refresh),
            (3, .cut), (2, .reboot), (3, .quiet), (2, .latency), (2, .pricesLate), (2, .publish), (1, .update),
            (3, .failRead), (1, .rotate), (1, .skew), (1, .slowDown), (1, .restart),
        ])
    }

    private mutating func act(_ action: Action) {
        switch action {
        case .wait: wait(random.spread(5_000, 900_000))
        case .glance:
            add(.phase(.inactive))
            wait(random.within(1_000...20_000))
            add(.phase(.active))
        case .background:
            add(.phase(.background))
            inFront = false
        case .kill: kill()
        case .show:
            let view = ViewName.allCases[random.below(ViewName.allCases.count)]
            guard !openViews.contains(view) else { return }
            openViews.append(view)
            add(.show(view))
        case .hide:
            guard !openViews.isEmpty else { return }
            add(.hide(openViews.remove(at: random.below(openViews.count))))
        case .refresh:
            guard !openViews.isEmpty else { return }
            add(.refresh(openViews[random.below(openViews.count)]))
        default: knob(action)
        }
    }

    private mutating func knob(_ action: Action? = nil) {
        let background: [(Int, Action)] = [
            (3, .cut), (2, .reboot), (3, .quiet), (2, .pricesLate), (2, .publish), (1, .update), (1, .rotate),
            (1, .skew), (1, .slowDown), (1, .restart),
        ]
        switch action ?? random.pick(background) {
        case .cut: add(.box(.cutCarriers))
        case .reboot: add(.box(.reboot))
        case .update:
            updates += 1
            add(.box(.update(build: "ftw-demobox-\(updates + 1)")))
        case .failRead:
            let read = Self.failingReads[random.below(Self.failingReads.count)]
            let kind = Self.readFaults[random.below(Self.readFaults.count)]
            add(.box(.failRead(ReadFault(read: read, kind: kind, always: false))))
        case .rotate:
            guard lastRotationMs.map({ elapsedMs - $0 >= 3_600_000 }) ?? true else { return }
            lastRotationMs = elapsedMs
            add(.relay(.rotate))
        case .skew:
            // A relay an hour off, then right again: the phone adopts the relay's epoch within one of its own.
            relaySkewed.toggle()
            add(.relay(.skew(hours: relaySkewed ? (random.chance(50) ? 1 : -1) : 0)))
        case .slowDown: add(.relay(.slowDown))
        case .restart: add(.relay(.restart))
        case .quiet:
            let source = random.chance(50) ? "sungrow" : "easee"
            let goesQuiet = !quiet.contains(source)
            if goesQuiet { quiet.insert(source) } else { quiet.remove(source) }
            add(.box(.deviceQuiet(source: source, goesQuiet)))
        case .latency:
            add(.box(.relayLatency(.milliseconds([0, 40, 120, 300][random.below(4)]))))
        case .pricesLate:
            pricesLate.toggle()
            add(.box(.pricesLate(pricesLate)))
        default:
            // Early (before the 14:00 the client expects them) or late (well after).
            let minutes = random.chance(50) ? random.within(600...779) : random.within(840...1_260)
            add(.box(.publishAt(minutes: Int(minutes))))
        }
    }

    private mutating func launch() {
        add(.launch)
        running = true
        comeBack()
        openViews = []
        for view in [ViewName.now]
            + (random.chance(50) ? [ViewName.allCases[random.below(ViewName.allCases.count)]] : [])
        where !openViews.contains(view) {
            openViews.append(view)
            add(.show(view))
        }
    }

    private mutating func comeBack() {
        add(.phase(.inactive))
        add(.phase(.active))
        inFront = true
    }

    private mutating func kill() {
        add(.kill)
        running = false
        inFront = false
    }

    private mutating func wait(_ bounds: (Int64, Int64)) {
        wait(random.spread(bounds.0, bounds.1))
    }

    /// Time passes, never past the soak's end by more than a second.
    private mutating func wait(_ milliseconds: Int64) {
        let clamped = min(milliseconds, max(1_000, lengthMs - elapsedMs))
        add(.wait(.milliseconds(clamped)))
        elapsedMs += clamped
    }

    private mutating func add(_ step: ScenarioStep) {
        lines.append(Scenario.Line(step: step, number: lines.count + 1))
    }
}
