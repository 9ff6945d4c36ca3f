import SessionInterface

/// The I/O of one connection, run as a child task of the session: dial, then hand every carrier event to the
/// session and send what it puts in the outbox, in order, until the carrier ends or the task is cancelled. It reads
/// the carrier only while the session's ``InboundWindow`` has a place, so a flood waits in TCP, not in memory.
///
/// It decides nothing: the session's loop does, from what this reports. A dial that finishes after the session
/// stopped wanting it (the app went to the background) closes its carrier at once, having sent nothing.
enum ConnectionRunner {
    static func run(
        generation: Int,
        dialer: any CarrierDialer,
        outbox: AsyncStream<[UInt8]>,
        inbound: InboundWindow,
        inputs: AsyncStream<SessionInput>.Continuation
    ) async {
        let carrier: any Carrier
        do {
            carrier = try await dialer.dial()
        } catch {
            inputs.yield(.dialed(generation: generation, failure: error))
            return
        }
        guard !Task.isCancelled else {
            await carrier.close()
            return
        }
        inputs.yield(.dialed(generation: generation, failure: nil))
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await message in outbox {
                    do throws(SessionError) {
                        try await carrier.send(message)
                    } catch {
                        inputs.yield(.carrierEnded(generation: generation, reason: error.message))
                        return
                    }
                }
            }
            for await event in carrier.incoming {
                guard await inbound.take() else { break }
                inputs.yield(.carrier(generation: generation, event))
            }
            inputs.yield(.carrierEnded(generation: generation, reason: "the carrier ended"))
            group.cancelAll()
        }
        await carrier.close()
    }
}
