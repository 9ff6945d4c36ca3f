import BoxProtocol
import ClockSeam
import Noise
import SessionInterface

extension SimulatedBox {
    private static let pulse: Duration = .seconds(1)

    /// The box's service: the 1 Hz pulse (uptime, the drivers, every session's stream, the cloud feed) and the
    /// timer that releases delayed deliveries and replies. Returns when its task is cancelled.
    public func run() async throws {
        guard !isRunning else { return }
        isRunning = true
        defer { isRunning = false }
        let metronome = metronome
        let wakeups = wakeups
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

    private func pulses(_ metronome: Metronome) async {
        var beat = Int64((metronome.elapsed / Self.pulse).rounded(.down)) + 1
        while !Task.isCancelled {
            let due = Self.pulse * beat
            guard (try? await metronome.sleep(until: due)) != nil else { return }
            pulse()
            beat += 1
        }
    }

    /// One pulse of the box.
    func pulse() {
        fireDueJobs()
        let wallMs = wallClock.nowMs
        let uptimeMs = uptime.nowMs
        let elapsed = metronome.elapsed
        turnEpochIfDue(wallMs: wallMs)
        refreshPlanIfQuarterTurned(wallMs: wallMs)
        let seconds = Double((elapsed - lastStep).wholeMilliseconds) / 1000
        lastStep = elapsed
        house.step(wallMs: wallMs, uptimeMs: uptimeMs, seconds: seconds, plannedBatteryW: plannedBatteryW(wallMs))
        for session in sessions.map(\.number) { streamPulse(session: session) }
        cloud.pulse(
            liveFields: liveFields(uptimeMs: uptimeMs),
            wallMs: wallMs,
            elapsed: elapsed,
            heartbeat: configuration.cloudHeartbeat
        )
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
            guard room.contains(stream) else { return }
            receive(bytes)
        case .toStream(let stream, let event): room.deliver(event, to: stream)
        case .toRoom(let event): room.broadcast(event)
        case .apiAnswer(let session, let id, let messages): finishAPI(session: session, id: id, messages: messages)
        case .historyStep(let session, let generation): historyStep(session: session, generation: generation)
        }
    }

    /// The fields whose source is live, as the cloud forwards them.
    func liveFields(uptimeMs: Int64) -> [Int: Int64] {
        let sources = house.sources(uptimeMs: uptimeMs, staleAfterMs: configuration.staleAfterMs)
        return house.fields(modeIndex: ModeCatalogue.index(of: house.mode)).filter { fid, _ in
            LiveHouse.source(ofField: fid).map { sources[$0]?.state == .live } ?? true
        }
    }

    /// The relay's epoch now; `rotateEpoch` moves it on by one.
    func relayEpoch(wallMs: Int64) -> Int64 {
        Rendezvous.epoch(nowMs: wallMs) + epochOffset
    }

    /// At the top of the hour the relay closes every WebSocket stream with 4410 and the new epoch.
    private func turnEpochIfDue(wallMs: Int64) {
        let epoch = relayEpoch(wallMs: wallMs)
        guard epoch != currentEpoch else { return }
        currentEpoch = epoch
        closeEpochStreams(epoch: epoch)
    }

    func closeEpochStreams(epoch: Int64) {
        for stream in room.streams where stream.epoch != nil {
            room.remove(stream.id, closing: .closed(code: 4410, reason: String(epoch)))
        }
        if room.streams.isEmpty { closeAllSessions() }
    }
}
