import FTWBus
import FTWSessionInterface

/// The app's end of an in-memory pipe into the box's relay room: what the in-process dialer hands the session.
final class InProcessCarrier: Carrier {
    let incoming: AsyncStream<CarrierEvent>
    private let box: SimulatedBox
    private let streamID: Int?

    /// A carrier on stream `streamID` of `box`'s room; nil for a carrier the room refused, whose `incoming` is
    /// already closed.
    init(box: SimulatedBox, streamID: Int?, incoming: AsyncStream<CarrierEvent>) {
        self.box = box
        self.streamID = streamID
        self.incoming = incoming
    }

    func send(_ message: [UInt8]) async throws(SessionError) {
        guard let streamID else { throw SessionError(.carrierLost, "the relay refused this stream") }
        try await box.carrierSend(streamID: streamID, message)
    }

    func close() async {
        guard let streamID else { return }
        await box.carrierClose(streamID: streamID)
    }
}
