import FTWBoxProtocol
import FTWClockSeam
import FTWNoise
import FTWSessionInterface

extension SimulatedBox {
    /// The box's service: the 1 Hz pulse (uptime, the drivers, every session's stream, the cloud feed) and the
    /// timer that releases delayed deliveries and replies. Returns when its task is cancelled.
    public func run() async throws {
        guard !isRunning else { return }
        isRunning = true
        defer { isRunning = false }
        let metronome = metronome
        let wakeups = wakeups
        scheduleRelayTurn()
        await withDiscardingTaskGroup { group in
            group.addTask { await self.pulses(metronome) }
            for await due in wakeups {
                group.addTask {
                    guard (try? await metronome.sleep(until: due)) != nil else { return }
                    await self.fireDueJobs()
                }
            }
            group.cancelAll()
        }
    }

    /// The pulse of a box nobody follows (no phone in the room, no session, no cloud listener): once a minute on the
    /// wall clock, so a week away costs a week of minutes, not of seconds. A phone or a listener arriving brings the
    /// 1 Hz pulse back at once.
    private static let idlePulseMs: Int64 = 60_000

    private func pulses(_ metronome: Metronome) async {
        while !Task.isCancelled {
            if isIdle {
                let waitMs = Self.idlePulseMs - LocalZone.floorMod(wallClock.nowMs, Self.idlePulseMs)
                guard await sleepWhileIdle(until: metronome.elapsed + .milliseconds(waitMs), metronome) else {
                    continue
                }
            } else {
                // Whole seconds, not `Duration / Duration`: its floating-point quotient can round an exact beat
                // down, and the box would pulse again at the same instant for ever.
                let beat = metronome.elapsed.components.seconds + 1
                guard (try? await metronome.sleep(until: .seconds(beat))) != nil else { return }
            }
            guard !Task.isCancelled else { return }
            pulse()
        }
    }

    /// Nobody follows the box: its pulse has nothing to stream.
    private var isIdle: Bool {
        sessions.isEmpty && relayModel.room.streams.isEmpty && !cloud.isFollowed
    }

    /// Sleeps until `due` unless someone arrives first (``noteArrival()``); true when `due` came.
    private func sleepWhileIdle(until due: Duration, _ metronome: Metronome) async -> Bool {
        idleEndedByArrival = false
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                try? await metronome.sleep(until: due)
                await self.endIdleWait()
            }
            await withCheckedContinuation { idleWaiter = $0 }
            group.cancelAll()
        }
        return !idleEndedByArrival
    }

    private func endIdleWait() {
        idleWaiter?.resume()
        idleWaiter = nil
    }

    /// A phone joined the room or a cloud listener subscribed: an idle box catches its house up to now (so what it
    /// sends first is fresh) and pulses at 1 Hz again from the next second.
    func noteArrival() {
        guard idleWaiter != nil else { return }
        idleEndedByArrival = true
        stepHouse()
        endIdleWait()
    }

    /// One pulse of the box.
    func pulse() {
        fireDueJobs()
        let wallMs = wallClock.nowMs
        let uptimeMs = uptime.nowMs
        let elapsed = metronome.elapsed
        refreshPlanIfQuarterTurned(wallMs: wallMs)
        stepHouse()
        if let silentUntil, elapsed < silentUntil {
            // Silent: the streams stay open and hold what they last sent, so the next beat carries every change.
        } else {
            silentUntil = nil
            for session in sessions.map(\.number) { streamPulse(session: session) }
        }
        cloud.pulse(
            liveFields: liveFields(uptimeMs: uptimeMs),
            wallMs: wallMs,
            elapsed: elapsed,
            heartbeat: configuration.cloudHeartbeat
        )
    }

    /// The house's physics and drivers move on to now.
    private func stepHouse() {
        let wallMs = wallClock.nowMs
        let elapsed = metronome.elapsed
        let seconds = Double((elapsed - lastStep).wholeMilliseconds) / 1000
        lastStep = elapsed
        house.step(wallMs: wallMs, uptimeMs: uptime.nowMs, seconds: seconds, plannedBatteryW: plannedBatteryW(wallMs))
    }

    /// Runs every job whose time has come, in order.
    func fireDueJobs() {
        while true {
            let due = jobs.takeDue(now: metronome.elapsed, isRelay: \.isRelay)
            guard !due.isEmpty else { return }
            for job in due { perform(job) }
        }
    }

    /// Runs `job` after `delay` (at once when zero).
    func schedule(_ job: BoxJob, after delay: Duration) {
        guard delay > .zero else { return perform(job) }
        let due = metronome.elapsed + delay
        jobs.add(job, due: due, isRelay: false)
        wakeupSink.yield(due)
    }

    /// Passes `job` through the relay: after the latency, and never ahead of a delivery already on its way.
    func relay(_ job: BoxJob) {
        let now = metronome.elapsed
        let due = max(now + relayLatency, jobs.lastRelayDue)
        guard due > now || jobs.pendingRelays > 0 else { return perform(job) }
        jobs.add(job, due: due, isRelay: true)
        wakeupSink.yield(due)
    }

    private func perform(_ job: BoxJob) {
        switch job {
        case .toBox(let stream, let bytes):
            guard relayModel.room.reachesBox(stream) else { return }
            receive(bytes)
        case .toStream(let stream, let event): relayModel.room.deliver(event, to: stream)
        case .toRoom(let event): relayModel.room.broadcast(event)
        case .apiAnswer(let session, let id, let messages): finishAPI(session: session, id: id, messages: messages)
        case .historyStep(let session, let generation): historyStep(session: session, generation: generation)
        case .uplinkRejoin(let attempt): uplinkRejoin(attempt: attempt)
        case .relayTurn(let generation): relayTurn(generation: generation)
        }
    }

    /// The fields whose source is live, as the cloud forwards them.
    func liveFields(uptimeMs: Int64) -> [Int: Int64] {
        let sources = house.sources(uptimeMs: uptimeMs, staleAfterMs: configuration.staleAfterMs)
        return house.fields(modeIndex: ModeCatalogue.index(of: house.mode)).filter { fid, _ in
            LiveHouse.source(ofField: fid).map { sources[$0]?.state == .live } ?? true
        }
    }
}
