import FTWSessionInterface

/// Dials the demo box's relay room without a socket: each carrier is an in-memory stream of the room, with the
/// relay's latency, limits and control words.
///
/// With a join path it joins as a phone joins the real relay (the allowance, the epoch, the handle), and reports
/// every close to `noteClose`, as a WebSocket carrier reports its close frame to the rendezvous.
struct InProcessDialer: CarrierDialer {
    /// A join path, who learns from the relay's closes, and when the box comes into the path's room.
    struct JoinPath: Sendable {
        let path: @Sendable () -> String
        let noteClose: @Sendable (Int, String) -> Void
        let boxArrival: @Sendable () -> BoxArrival?
    }

    let box: SimulatedBox
    var joinPath: JoinPath?

    var boxArrival: BoxArrival? { joinPath?.boxArrival() }

    func dial() async throws(SessionError) -> any Carrier {
        guard let joinPath else { return await box.joinInProcess() }
        return await box.joinInProcess(path: joinPath.path(), noteClose: joinPath.noteClose)
    }
}
