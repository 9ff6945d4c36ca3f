import FTWSessionInterface

/// Two connected in-memory carriers: the app's end and the box's end of one relay room stream.
public struct InMemoryCarrierPair: Sendable {
    /// The end the session uses.
    public let app: InMemoryCarrier
    /// The end a scripted or demo box uses; it also speaks for the relay.
    public let box: InMemoryCarrier

    /// Makes an open pair.
    public init() {
        let (appStream, appContinuation) = AsyncStream.makeStream(of: CarrierEvent.self)
        let (boxStream, boxContinuation) = AsyncStream.makeStream(of: CarrierEvent.self)
        let link = InMemoryCarrier.Link(app: appContinuation, box: boxContinuation)
        app = InMemoryCarrier(side: .app, incoming: appStream, link: link)
        box = InMemoryCarrier(side: .box, incoming: boxStream, link: link)
    }
}
