import FTWBus

/// Runs a handshake step against a deadline on an injected clock, so a handshake never hangs and tests drive its
/// timeouts with a manual clock.
///
/// The work runs as a child task while another sleeps on the clock. If the deadline (or the caller's cancellation)
/// wins, `expire` is told why and must make the work end soon (by closing its socket) and the caller returns at once
/// with that error; work that succeeds anyway afterwards hands its late result to `abandon`, which must release it.
enum Deadline {
    static func run<Success: Sendable>(
        timeout: Duration,
        clock: any Clock<Duration>,
        expire: @escaping @Sendable (WebSocketError) -> Void,
        abandon: @escaping @Sendable (Success) -> Void,
        work: @escaping @Sendable () async -> Result<Success, WebSocketError>
    ) async -> Result<Success, WebSocketError> {
        let outcome = OneShot<Result<Success, WebSocketError>>()
        return await withTaskGroup(of: Void.self) { group in
            group.addTask {
                let result = await work()
                if !outcome.fulfil(result), case .success(let late) = result { abandon(late) }
            }
            group.addTask {
                let expiry: WebSocketError
                do {
                    try await clock.sleep(for: timeout)
                    expiry = WebSocketError(.timeout, "no answer within \(timeout)")
                } catch {
                    expiry = WebSocketError(.cancelled, "cancelled while waiting")
                }
                if outcome.fulfil(.failure(expiry)) { expire(expiry) }
            }
            let result = await outcome.value
            group.cancelAll()
            return result
        }
    }
}
