import FTWBoxProtocol
import FTWSessionInterface

/// Something the box does later: a relay delivery held back by latency, or a reply still being worked on.
enum BoxJob: Sendable {
    /// An app's message reaches the uplink.
    case toBox(stream: Int, bytes: [UInt8])
    /// A relay event reaches one app stream.
    case toStream(Int, CarrierEvent)
    /// Box output reaches every app stream in the room at that moment.
    case toRoom(CarrierEvent)
    /// An API handler finished: its head, chunks and end go out and the slot frees.
    case apiAnswer(session: Int, id: UInt32, messages: [Message])
    /// The next tile of a history query is read.
    case historyStep(session: Int, generation: Int)
    /// The box's uplink tries to rejoin the room (after a relay restart or the hour's move), its `attempt`-th try.
    case uplinkRejoin(attempt: Int)
    /// The relay looks at its clock: its epoch may have advanced, or the old room's move come due
    /// (`RelayModel.turn()`); only the latest `generation` acts.
    case relayTurn(generation: Int)

    var isRelay: Bool {
        switch self {
        case .toBox, .toStream, .toRoom: true
        case .apiAnswer, .historyStep, .uplinkRejoin, .relayTurn: false
        }
    }
}
