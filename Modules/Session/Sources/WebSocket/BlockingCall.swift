import Bus
import Foundation

/// Runs blocking socket work on a thread of its own and awaits it, bounded by a deadline on an injected clock.
///
/// Blocking calls must not occupy Swift's cooperative threads, and a handshake must never hang, so the work runs on
/// a fresh thread while a child task sleeps on the caller's clock. If the deadline (or the caller's cancellation)
/// wins, `interrupt` wakes the thread (by shutting its socket down) and the caller returns at once; the thread later
/// hands its late result to `abandon`, which must release whatever the caller would otherwise have owned.
enum BlockingCall {
    static func run<Success: Sendable>(
        timeout: Duration,
        clock: any Clock<Duration>,
        interrupt: @escaping @Sendable () -> Void,
        abandon: @escaping @Sendable (Result<Success, WebSocketError>) -> Void,
        work: @escaping @Sendable () -> Result<Success, WebSocketError>
    ) async -> Result<Success, WebSocketError> {
        let outcome = OneShot<Result<Success, WebSocketError>>()
        let thread = Thread {
            let result = work()
            if !outcome.fulfil(result) { abandon(result) }
        }
        thread.name = "WebSocket handshake"
        thread.start()
        return await withTaskGroup(of: Void.self) { group in
            group.addTask {
                let expiry: WebSocketError
                do {
                    try await clock.sleep(for: timeout)
                    expiry = WebSocketError(.timeout, "no answer within \(timeout)")
                } catch {
                    expiry = WebSocketError(.cancelled, "cancelled while waiting")
                }
                if outcome.fulfil(.failure(expiry)) { interrupt() }
            }
            let result = await outcome.value
            group.cancelAll()
            return result
        }
    }
}
