import FTWBus
import FTWSessionInterface

/// The I/O of one connection, run as a child task of the session: dial, then hand every carrier event to the
/// session and send what it puts in the outbox, in order, until the carrier ends or the session stops it. It reads
/// the carrier's next event only once the session has handled the last, so a flood waits in the carrier's inbox and
/// TCP, not in the session's memory.
///
/// It runs isolated to the session, so a carrier event is handed over as a plain call: under the client's executor
/// preference every hop between the session and a nonisolated runner went back through the loop's run queue, two
/// jobs a live frame.
///
/// It decides nothing: the session's loop does, from what this reports. Only the dial is cancelled by a stop (a
/// socket connect gives up); an open carrier is closed the way a peer expects, with a close frame and a brief,
/// bounded wait for the answer, because a dropped socket reads as a lost network on the other side (1006). A dial
/// that finishes after the session stopped wanting it closes its carrier at once, having sent nothing.
enum ConnectionRunner {
    static func run(
        generation: Int,
        dialer: any CarrierDialer,
        outbox: AsyncStream<[UInt8]>,
        stop: StopSignal,
        session: isolated LiveSession
    ) async {
        let dialled = await stop.race { () async -> Result<any Carrier, SessionError> in
            do throws(SessionError) {
                return .success(try await dialer.dial())
            } catch {
                return .failure(error)
            }
        }
        let carrier: any Carrier
        switch dialled {
        case nil:
            return
        case .failure where stop.isStopped:
            return
        case .failure(let error):
            session.report(.dialed(generation: generation, .failure(error)))
            return
        case .success(let opened) where stop.isStopped || Task.isCancelled:
            await opened.close()
            return
        case .success(let opened):
            carrier = opened
        }
        session.report(.dialed(generation: generation, .success(carrier)))
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await message in outbox {
                    do throws(SessionError) {
                        try await carrier.send(message)
                    } catch {
                        await session.report(.carrierEnded(generation: generation, reason: error.message))
                        return
                    }
                }
            }
            group.addTask {
                // A stop closes the carrier; its incoming stream then ends and so does the loop below.
                await stop.wait()
                await carrier.close()
            }
            if let relay = carrier as? RelayCarrier {
                await relay.forEachEvent(isolation: session, executor: session.isolation.sharedExecutor) {
                    session.report(.carrier(generation: generation, $0))
                }
            } else {
                for await event in carrier.incoming {
                    session.report(.carrier(generation: generation, event))
                }
            }
            session.report(.carrierEnded(generation: generation, reason: "the carrier ended"))
            group.cancelAll()
        }
        await carrier.close()
    }
}
