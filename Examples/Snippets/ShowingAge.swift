import FTWClient

/// The "showing age and connection" section of docs/composing.md: each reading with its moment and basis, and the
/// connection as a person is told it, redrawn on the screen's own one-second tick so ages move while nothing arrives.
func showingAge(_ client: HeadlessClient) async {
    for await screen in client.observeHomeScreen().prefix(1) {
        for reading in screen.readings {
            let age = reading.asOf.ageMs(atWallMs: client.nowMs).map { "\($0 / 1000) s old" } ?? "age unknown"
            print("\(reading.name) = \(reading.value) \(reading.unit) (\(reading.asOf.basis.words), \(age))")
        }
    }
}

/// The connection line: "live", "stale since …", "reconnecting in 3 s", "offline: … (advice)".
func connectionLine(_ client: HeadlessClient) async {
    for await status in client.observeConnection() {
        switch status {
        case .backingOff(let wait):
            let seconds = status.secondsToNextTry(nowMs: client.nowMs) ?? 0
            print("reconnecting in \(seconds) s (attempt \(wait.attempt)): \(wait.because.message)")
        case .offline(let reason, let advice):
            print("offline: \(reason.message). \(advice)")
        default:
            print(status)
        }
    }
}
