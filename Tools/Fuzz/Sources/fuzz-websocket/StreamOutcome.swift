import FTWWebSocket

/// What reading a byte stream produced: the events, and the error that ended it (if one did).
struct StreamOutcome: Equatable {
    var frames: [WebSocketFrame] = []
    var events: [WebSocketEvent] = []
    var failure: WebSocketError?
}
