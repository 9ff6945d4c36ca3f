/// A reader that takes each message inside the loop's read that parsed it
/// (``WebSocketConnection/receiveInline(isolation:_:)``): a plain call on the loop's thread, no task resumed.
package protocol InlineMessageReader: AnyObject, Sendable {
    /// Handles `message` on the loop's thread, outside any job; must not block.
    func take(_ message: WebSocketMessage)
}
