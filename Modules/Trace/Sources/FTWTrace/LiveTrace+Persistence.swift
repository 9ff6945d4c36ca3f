import FTWBus
import FTWClockSeam
import FTWSealInterface

extension LiveTrace {
    /// Writes the ring file now: the app calls it at inactive and at background, the service every
    /// ``TraceConfiguration/persistInterval`` while live points come in.
    ///
    /// Writes are serialised and each one seals the rings as they are when it starts, so when this returns the
    /// file holds everything recorded before the call. A trace with no point at all writes nothing, so a trace
    /// asked to persist before its restore never overwrites the file it would read; nor does one with nothing new
    /// since its restore or its last write, so a launch's first inactive costs no write and no fsync.
    public func persist() async {
        guard store != nil, unsaved || writer.isWriting else { return }
        writer.requested += 1
        let ticket = writer.requested
        while writer.isWriting {
            await withCheckedContinuation { writer.waiters.append($0) }
        }
        guard writer.covered < ticket else { return }
        writer.isWriting = true
        writer.covered = writer.requested
        await writeRings()
        writer.isWriting = false
        let waiters = writer.waiters
        writer.waiters = []
        for waiter in waiters { waiter.resume() }
    }

    /// Reads the ring file back, once, before anything connects: each point comes back unseen, runs as recorded,
    /// and the first live point after it starts its own run. Callers that ask while it reads wait for it.
    ///
    /// A file that does not open reads as empty (the store drops it and says why on its bus); one that opens but
    /// does not decode leaves the trace empty and says why with `TraceEvent.restoreFailed`. A trace that already
    /// recorded live points keeps them and reads nothing back.
    public func restore() async {
        switch restoration {
        case .finished:
            return
        case .reading:
            await withCheckedContinuation { continuation in
                if case .reading(let waiters) = restoration {
                    restoration = .reading(waiters: waiters + [continuation])
                } else {
                    continuation.resume()
                }
            }
            return
        case .pending:
            restoration = .reading(waiters: [])
        }
        let bytes = await store?.read(.ring(site))
        if let bytes, let found = bytes.first, found > RingFile.version {
            // A newer build's rings: kept on disk for it, never written over; this trace starts empty.
            let file = SealedFileName.ring(site).fileName
            await store?.discard(
                .ring(site),
                holding: bytes,
                because: .newer(file: file, version: found, current: RingFile.version)
            )
        } else if let bytes, rings.values.allSatisfy({ $0.count == 0 }) {
            install(bytes)
        }
        if case .reading(let waiters) = restoration {
            for waiter in waiters { waiter.resume() }
        }
        restoration = .finished
    }

    /// Loops on the injected clock, writing the ring file each interval in which live points came in.
    ///
    /// While the app is in the background with nothing left to write, the loop sleeps on no timer at all (an idle
    /// client wakes nobody); when the session leaves `idle` it takes up the same beat again, so every write falls
    /// where it always did.
    func writeWhileLive() async {
        await writeWhileLive(on: clock)
    }

    private func writeWhileLive<C: Clock<Duration>>(on clock: C) async {
        let interval = configuration.persistInterval
        var next = clock.now.advanced(by: interval)
        var wakes = wakes.makeAsyncIterator()
        while true {
            if isIdle, !unsaved {
                guard await wakes.next() != nil else { return }
                while next <= clock.now { next = next.advanced(by: interval) }
            }
            do {
                try await clock.sleep(until: next, tolerance: nil)
            } catch {
                return
            }
            next = next.advanced(by: interval)
            if unsaved { await persist() }
        }
    }

    private func writeRings() async {
        guard let store, rings.values.contains(where: { $0.count > 0 }) else { return }
        let fields =
            ringFileFields ?? rings.sorted { $0.key < $1.key }.map { RingFile.Field(fieldID: $0.key, ring: $0.value) }
        ringFileFields = fields
        let bytes = RingFile.encode(fields)
        unsaved = false
        do {
            try await store.write(bytes, to: .ring(site))
            events.publish(.persisted(bytes: bytes.count))
        } catch {
            unsaved = true
            events.publish(.persistFailed(error))
        }
    }

    private func install(_ bytes: [UInt8]) {
        let limits = RingFile.Limits(
            capacity: configuration.ringCapacity,
            windowMs: configuration.window.wholeMilliseconds,
            maxFields: configuration.maxFields
        )
        do {
            let fields = try RingFile.decode(bytes, limits: limits, runs: &runs)
            var points = 0
            var newestMs: Int64?
            for field in fields where field.ring.count > 0 {
                field.ring.breaksNextRun = true
                rings[field.fieldID] = field.ring
                ringsReplaced += 1
                points += field.ring.count
                newestMs = max(newestMs ?? .min, field.ring.newest?.timeMs ?? .min)
            }
            if let newestMs { restored = RestoredSpan(newestMs: newestMs) }
            events.publish(.restored(points: points))
            if points > 0 { events.publish(.changed) }
        } catch {
            events.publish(.restoreFailed(error))
        }
    }
}
