import SessionInterface

/// What the relay does with a WebSocket join: let the phone into the room, or close it with a code.
enum RelayDecision: Sendable {
    /// In the room as stream `id`; `events` is what the relay hands the phone.
    case joined(id: Int, events: AsyncStream<CarrierEvent>)
    /// Closed at once with `code` and `reason` (4400 bad join, 4409 wrong epoch, 4429 busy).
    case refused(code: UInt16, reason: String)
}
