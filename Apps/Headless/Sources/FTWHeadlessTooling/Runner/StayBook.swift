import FTWBoxProtocol
import FTWClient
import FTWDemoBox
import FTWSessionInterface

/// The stays of a scenario as they happen (as ``Stays`` defines them): when each began and ended, what the launch
/// drew, when the stream came back; and afterwards, which request frames belong to which stay.
struct StayBook {
    private struct Stay {
        var began: Int64
        var ended: Int64?
        var launched: Bool
        var drawn: DrawnFromFiles?
        var firstContentMs: Int64?
        var liveMs: Int64?
        var cuts = 0
        /// The last reason a connection closed during the stay.
        var lastClose: String?
        /// Whether the box answered hello during the stay.
        var answeredHello = false
        /// When the box comes into this hour's room, if the stay waited for it (the hour's turn).
        var boxArrival: BoxArrival?
        var timeline: [ConnectionStep] = []
        var failedReads: [FailedRead] = []
        var commands: [CommandReport] = []
        /// A launch killed (or left at the scenario's end) before any phase in front: listed, so that no launch
        /// goes unsaid, and never live.
        var neverInFront = false
        var looks: [ShownAges] = []
        var shownAtEnd: ShownAges?

        /// Why the stay never went live, in a line a person reads; nil once it did.
        var notLiveBecause: String? {
            if neverInFront { return "the app was killed before it came to the front" }
            guard liveMs == nil else { return nil }
            if let lastClose { return "the connection closed: \(lastClose)" }
            if answeredHello { return "the box answered hello but sent no live frame" }
            return "no connection finished its handshake before the stay ended"
        }
    }

    private var stays: [Stay] = []
    private var rule = Stays()
    private var pendingLaunch: (atMs: Int64, drawn: DrawnFromFiles)?
    private var pendingCarrierClose: (code: Int, reason: String)?
    /// Commands given after a launch and before its first phase in front: the stay about to begin keeps them.
    private var pendingCommands: [CommandReport] = []

    /// The app was launched and its sealed files drew `drawn`; the stay begins at the first phase in front.
    mutating func launched(atMs: Int64, drawn: DrawnFromFiles) {
        pendingLaunch = (atMs, drawn)
    }

    /// The app is in front (inactive or active): a stay begins unless one is running.
    mutating func inFront(atMs: Int64) {
        guard rule.cameToFront() != nil else { return }
        let launch = pendingLaunch
        pendingLaunch = nil
        let drewSomething = launch.map { !$0.drawn.isEmpty } ?? true
        stays.append(
            Stay(
                began: launch?.atMs ?? atMs,
                ended: nil,
                launched: launch != nil,
                drawn: launch?.drawn,
                firstContentMs: drewSomething ? 0 : nil,
                liveMs: nil,
                commands: pendingCommands
            )
        )
        pendingCommands = []
    }

    /// The app went to the background: the running stay ends.
    mutating func ended(atMs: Int64) {
        // The running stay is the last one made: a launch that never came to the front is listed only while none runs.
        guard rule.left() != nil, let last = stays.indices.last else { return }
        stays[last].ended = atMs
    }

    /// The process ends: killed at `atMs`, or (nil) left running when the scenario ended. The running stay ends; a
    /// launch that never came to the front is listed as a stay of its own, however short, with what it drew.
    mutating func processEnded(atMs: Int64, killed: Bool) {
        if killed { ended(atMs: atMs) }
        guard let launch = pendingLaunch else { return }
        pendingLaunch = nil
        stays.append(
            Stay(
                began: launch.atMs,
                ended: killed ? atMs : nil,
                launched: true,
                drawn: launch.drawn,
                firstContentMs: launch.drawn.isEmpty ? nil : 0,
                commands: pendingCommands,
                neverInFront: true
            )
        )
        pendingCommands = []
    }

    /// The demo box cut every carrier (or rebooted): frames in flight may be lost between the phone and the box.
    mutating func carrierCut() {
        guard let last = stays.indices.last, stays[last].ended == nil else { return }
        stays[last].cuts += 1
    }

    /// The stream came back: the first live reading of the running stay.
    mutating func streamReturned(atMs: Int64) {
        guard let last = stays.indices.last, stays[last].ended == nil else { return }
        let since = atMs - stays[last].began
        if stays[last].liveMs == nil { stays[last].liveMs = since }
        if stays[last].firstContentMs == nil { stays[last].firstContentMs = since }
    }

    /// The stream went live or stale: a step of the running stay's timeline, with its cause.
    mutating func liveness(_ liveness: StreamLiveness) {
        guard let last = stays.indices.last, stays[last].ended == nil else { return }
        switch liveness {
        case .live(let sinceMs):
            let afterStale = stays[last].timeline.last?.kind == .stale
            let cause = afterStale ? "a beat arrived after the silence" : "the first beat after hello_ok"
            stays[last].timeline.append(ConnectionStep(atMs: sinceMs, kind: .live, cause: cause))
        case .stale(let sinceMs, let lastBeatMs):
            let cause =
                lastBeatMs.map { "no beat for \(sinceMs - $0) ms since the last" }
                ?? "no beat within the gap rule after hello_ok"
            stays[last].timeline.append(ConnectionStep(atMs: sinceMs, kind: .stale, cause: cause))
        }
    }

    /// The phone's network changed: it goes on the running stay's timeline, before what the session does about it.
    mutating func networkChanged(atMs: Int64) {
        guard let last = stays.indices.last, stays[last].ended == nil else { return }
        stays[last].timeline.append(ConnectionStep(atMs: atMs, kind: .networkChange))
    }

    /// The connection changed: it goes on the stay's timeline; a close keeps its reason and hello marks the box as
    /// answering, so a stay that never goes live can say why. A close at the moment the stay ended (the background,
    /// a kill) still belongs to it.
    mutating func connection(_ state: ConnectionState, atMs: Int64) {
        guard let last = stays.indices.last, stays[last].ended.map({ $0 == atMs }) ?? true else {
            pendingCarrierClose = nil
            return
        }
        let inFront = stays[last].ended == nil
        switch state {
        case .closed(let reason):
            if inFront { stays[last].lastClose = reason.message }
            stays[last].timeline.append(
                ConnectionStep(
                    atMs: atMs,
                    kind: .close,
                    code: pendingCarrierClose?.code,
                    closeReason: pendingCarrierClose?.reason,
                    reason: reason.message
                )
            )
        case .streaming(let hello):
            if inFront { stays[last].answeredHello = true }
            stays[last].timeline.append(ConnectionStep(atMs: atMs, kind: .helloOK, build: hello.box.build))
        case .dialing(let attempt):
            stays[last].timeline.append(ConnectionStep(atMs: atMs, kind: .dial, attempt: attempt))
        case .handshaking:
            stays[last].timeline.append(ConnectionStep(atMs: atMs, kind: .handshake))
        case .awaitingBox(let arrival):
            stays[last].boxArrival = arrival
            stays[last].timeline.append(
                ConnectionStep(
                    atMs: atMs,
                    kind: .awaitingBox,
                    boxMovesAtMs: arrival.movesAtMs,
                    boxDueByMs: arrival.dueByMs
                )
            )
        case .backingOff(let wait):
            guard let close = stays[last].timeline.indices.last, stays[last].timeline[close].kind == .close else {
                break
            }
            stays[last].timeline[close].nextTryAtMs = wait.nextTryAtMs
            stays[last].timeline[close].nextAttempt = wait.attempt
        case .idle:
            break
        }
        pendingCarrierClose = nil
    }

    /// The carrier closed with `code` and `reason`: the close the session publishes next carries them.
    mutating func carrierClosed(code: Int, reason: String) {
        pendingCarrierClose = (code, reason)
    }

    /// A person looked at the screen in the running stay (`look`), or, `atEnd`, the stay is about to end.
    mutating func looked(_ shown: ShownAges, atEnd: Bool) {
        guard let last = stays.indices.last, stays[last].ended == nil else { return }
        if atEnd { stays[last].shownAtEnd = shown } else { stays[last].looks.append(shown) }
    }

    /// Whether a stay runs: what a look would be kept in.
    var isInFront: Bool { rule.running }

    /// A read failed: kept when the stay is in front (the background's own failures are not what a person sees).
    mutating func readFailed(_ read: FailedRead) {
        guard let last = stays.indices.last, stays[last].ended == nil else { return }
        stays[last].failedReads.append(read)
    }

    /// A person gave a command; returns where it is kept, for ``commandSettled(_:_:)``. The running stay keeps it;
    /// one given in the background is kept by the stay the app left, marked so; one given after a launch and before
    /// the front, by the stay about to begin, the next one made.
    mutating func commandGiven(_ command: CommandReport) -> (stay: Int, index: Int) {
        var command = command
        guard pendingLaunch == nil, let last = stays.indices.last else {
            command.inBackground = true
            pendingCommands.append(command)
            return (stays.count, pendingCommands.count - 1)
        }
        if stays[last].ended != nil { command.inBackground = true }
        stays[last].commands.append(command)
        return (last, stays[last].commands.count - 1)
    }

    /// The command kept at `place` settled: `update` fills in how.
    mutating func commandSettled(_ place: (stay: Int, index: Int), _ update: (inout CommandReport) -> Void) {
        if stays.indices.contains(place.stay) {
            update(&stays[place.stay].commands[place.index])
        } else {
            update(&pendingCommands[place.index])
        }
    }

    /// Every stay with the request frames the box received in it (from its beginning to the next stay's) and the
    /// client's asks log over the same stretch, compared frame by frame; when the box's list is not visible
    /// (`received` nil), the stay counts the asks log and compares nothing.
    func reports(received: [ReceivedRequest]?, asks: [AskRecord], endMs: Int64) -> [StayReport] {
        let beganAtMs = stays.map(\.began)
        return stays.enumerated().map { index, stay in
            let span = Stays.span(of: index, beganAtMs: beganAtMs)
            let logged = asks.filter { span.contains($0.atMs) }
            let boxFrames = received?.filter { span.contains($0.atMs) }
            let frames = boxFrames.map { $0.map { ($0.type, $0.detail) } } ?? logged.map { ($0.type, $0.detail) }
            return StayReport(
                number: index + 1,
                beganAtMs: stay.began,
                endedAtMs: stay.ended,
                launched: stay.launched,
                requestsByType: Dictionary(frames.map { ($0.0, 1) }, uniquingKeysWith: +),
                requests: frames.map { "\($0.0) \($0.1)" },
                asksLogged: logged.count,
                mismatch: boxFrames.flatMap { frames in
                    Self.mismatch(box: frames, asks: logged) { ask in
                        stay.cuts > 0 || stay.ended.map { ask.atMs >= $0 - Self.inFlightMs } ?? false
                    }
                },
                drawnBeforeConnect: stay.drawn,
                firstContentMs: stay.firstContentMs,
                liveMs: stay.liveMs,
                boxMovesAtMs: stay.boxArrival?.movesAtMs,
                boxDueByMs: stay.boxArrival?.dueByMs,
                notLiveBecause: stay.notLiveBecause,
                liveTime: Self.time(in: stay.timeline, endMs: stay.ended ?? endMs),
                timeline: stay.timeline,
                looks: stay.looks,
                shownAtEnd: stay.shownAtEnd,
                failedReads: stay.failedReads,
                commands: stay.commands
            )
        }
    }

    /// How long a stay's stream was live and stale, from its timeline's `live` and `stale` steps: each lasts until
    /// the next of them or a close, and the last until the stay ended (`endMs`).
    static func time(in timeline: [ConnectionStep], endMs: Int64) -> StayReport.LiveTime {
        var time = StayReport.LiveTime()
        var open: ConnectionStep?
        func close(atMs: Int64) {
            guard let step = open else { return }
            if step.kind == .live { time.liveMs += atMs - step.atMs } else { time.staleMs += atMs - step.atMs }
            open = nil
        }
        for step in timeline {
            switch step.kind {
            case .live, .stale:
                close(atMs: step.atMs)
                open = step
            case .close:
                close(atMs: step.atMs)
            default:
                break
            }
        }
        close(atMs: endMs)
        return time
    }

    /// How long before a stay ends (a background, a kill) a frame may have left and still be on its way when the
    /// carrier closes: the slowest relay a scenario sets is well under it.
    static let inFlightMs: Int64 = 10_000

    /// What differs between the box's list and the asks log, compared by type and request id in order.
    ///
    /// A frame that left the phone may never reach the box when the carrier drops under it: after a cut, or in the
    /// last moments of a stay (the background or a kill closes the carrier). Then the box's list need only be the
    /// asks log with such frames left out, in the same order. Anything else is a mismatch.
    private static func mismatch(
        box: [ReceivedRequest],
        asks: [AskRecord],
        mayBeLost: (AskRecord) -> Bool
    ) -> String? {
        let boxKeys = box.map { "\($0.type)#\($0.id ?? 0)" }
        let askKeys = asks.map { "\($0.type)#\($0.id)" }
        var remaining = boxKeys[...]
        var agrees = true
        for (ask, key) in zip(asks, askKeys) {
            if remaining.first == key {
                remaining.removeFirst()
            } else if !mayBeLost(ask) {
                agrees = false
                break
            }
        }
        if agrees && remaining.isEmpty { return nil }
        return "the box received [\(boxKeys.joined(separator: ", "))] but the asks log has "
            + "[\(askKeys.joined(separator: ", "))]"
    }
}
