// A library an app links beside ftw-core, standing in for swift-nio, a CBOR library or an HTTP client: it declares
// the plain names those do, so `CuratedSurfaceTests` can name them unqualified beside `import FTWClient`.

/// Where a neighbour's work runs, as swift-nio's `EventLoop` is.
public struct EventLoop: Sendable {
    /// Which loop, so two are told apart.
    public let name: String

    /// A loop named `name`.
    public init(name: String) { self.name = name }
}

/// A decoded value, as a CBOR library's `CBOR` is.
public enum CBOR: Sendable, Equatable {
    /// A text string, the one kind the test needs.
    case text(String)
}

/// A unit of a neighbour's wire.
public struct Frame: Sendable {
    /// The frame's bytes.
    public let bytes: [UInt8]

    /// A frame of `bytes`.
    public init(bytes: [UInt8]) { self.bytes = bytes }
}

/// A neighbour's TLS settings.
public struct TLSConfiguration: Sendable {
    /// Whether the peer's certificate is checked.
    public let verifies: Bool

    /// Settings that check the peer's certificate or not.
    public init(verifies: Bool) { self.verifies = verifies }
}
