/// Where a paired site's relay listens: `ws://HOST:PORT` (the demo box's loopback relay; the real relay's TLS is
/// not spoken here).
public struct RelayAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address `ftw-demobox` listens on by default.
    public static let demoBox = RelayAddress(host: "127.0.0.1", port: 8787)

    /// The relay's host.
    public var host: String
    /// Its port.
    public var port: Int

    /// Makes an address.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Reads `ws://HOST:PORT`.
    ///
    /// - Throws: ``EnrolmentError`` `.relay` for anything else.
    public init(parsing text: String) throws(EnrolmentError) {
        let scheme = "ws://"
        let rest = text.hasPrefix(scheme) ? text.dropFirst(scheme.count) : ""
        let address = rest.hasSuffix("/") ? rest.dropLast() : rest
        guard let colon = address.lastIndex(of: ":"), colon != address.startIndex,
            let port = Int(address[address.index(after: colon)...]), (1...65535).contains(port)
        else {
            throw EnrolmentError(.relay, "'\(text)' is not a relay address such as ws://127.0.0.1:8787")
        }
        self.init(host: String(address[..<colon]), port: port)
    }

    /// `ws://HOST:PORT`.
    public var description: String { "ws://\(host):\(port)" }
}
