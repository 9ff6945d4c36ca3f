/// The relay's join allowance (protocol.md §8.3, `attemptLimit` and `attemptWindowMs` in relay/src/server.ts): at
/// most 30 joins per address in a fixed 60 s window. A join over it is refused (4429 `slow down`) and costs nothing
/// more; the window turns at the first join after it ended, a moment the client cannot see. A household's box and
/// phones behind one NAT address share it.
struct JoinAllowance: Sendable {
    /// Joins allowed per address in one window, as the production relay allows.
    static let productionLimit = 30
    /// The window's length.
    static let windowMs: Int64 = 60_000

    /// Joins allowed per address in one window; nil for no limit.
    private let limit: Int?
    private var counts: [String: Int] = [:]
    private var windowEndsAtMs: Int64

    /// The first window runs from the relay's start.
    init(limit: Int?, startMs: Int64) {
        self.limit = limit
        windowEndsAtMs = startMs + Self.windowMs
    }

    /// Counts a join from `address` at `nowMs`; false when the window's allowance is already spent.
    mutating func allow(_ address: String, nowMs: Int64) -> Bool {
        guard let limit else { return true }
        roll(nowMs: nowMs)
        let count = counts[address, default: 0]
        guard count < limit else { return false }
        counts[address] = count + 1
        return true
    }

    /// Spends what is left of `address`'s allowance in the window running at `nowMs`: a household whose phones and
    /// box have just joined thirty times. Nothing to spend without a limit.
    mutating func spend(_ address: String, nowMs: Int64) {
        guard let limit else { return }
        roll(nowMs: nowMs)
        counts[address] = limit
    }

    private mutating func roll(nowMs: Int64) {
        guard nowMs >= windowEndsAtMs else { return }
        counts.removeAll()
        windowEndsAtMs = nowMs + Self.windowMs
    }
}
