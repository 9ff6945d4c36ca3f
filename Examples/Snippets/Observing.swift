import FTWClient

/// The observation section of docs/composing.md: each screen's values, first the current one, then each change.
func observing(_ client: HeadlessClient) async {
    for await prices in client.observePrices() {
        if let window = prices.answer {
            print("\(window.rates.count) rates, asked \(prices.ageMs(nowMs: client.nowMs) ?? 0) ms ago")
        } else if let failure = prices.failure {
            print("no prices: \(failure)")
        }
    }
}

/// A screen that shows two values at once reads each observation in its own task.
func observingTwo(_ client: HeadlessClient) async {
    await withTaskGroup(of: Void.self) { group in
        group.addTask { for await plan in client.observePlan() { print("plan:", plan) } }
        group.addTask { for await window in client.observeHistory() { print("history:", window) } }
    }
}
