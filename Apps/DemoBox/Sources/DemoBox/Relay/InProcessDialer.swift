import SessionInterface

/// Dials the demo box's relay room without a socket: each carrier is an in-memory stream of the room, with the
/// relay's latency, limits and control words.
struct InProcessDialer: CarrierDialer {
    let box: SimulatedBox

    func dial() async throws(SessionError) -> any Carrier {
        await box.joinInProcess()
    }
}
