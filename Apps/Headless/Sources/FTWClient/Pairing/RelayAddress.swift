public import FTWClockSeam
public import FTWSession
public import FTWSocketLoop
import FTWWebSocket

/// Where a paired site's relay listens: `wss://relay.ftw.energy` for a real box (protocol.md §8.3: the box's relay
/// is not configurable), `ws://127.0.0.1:8787` for the demo box, or a self-hosted relay.
///
/// Reads `ws://HOST[:PORT]` and `wss://HOST[:PORT]` (default ports 80 and 443), with an IPv6 literal in brackets
/// (`wss://[::1]:8443`); a trailing `/` is allowed, anything else (a path, a query, user information, another scheme,
/// an empty host) is refused with a message that says which part is wrong.
public struct RelayAddress: Sendable, Hashable, CustomStringConvertible {
    /// The production relay every real box meets its phones through.
    public static let production = RelayAddress(secure: true, host: "relay.ftw.energy", port: 443)

    /// The address `ftw-demobox` listens on by default (plain `ws://` on loopback).
    public static let demoBox = RelayAddress(secure: false, host: "127.0.0.1", port: 8787)

    /// Whether the relay speaks TLS (`wss://`).
    public var secure: Bool
    /// The relay's host: a name, or an IP literal (IPv6 without brackets).
    public var host: String
    /// Its port.
    public var port: Int

    /// Makes an address.
    public init(secure: Bool, host: String, port: Int) {
        self.secure = secure
        self.host = host
        self.port = port
    }

    /// Reads `ws://HOST[:PORT]` or `wss://HOST[:PORT]`.
    ///
    /// - Throws: ``EnrolmentError`` `.relay`, naming what is wrong, for anything else.
    public init(parsing text: String) throws(EnrolmentError) {
        func refuse(_ why: String) -> EnrolmentError {
            EnrolmentError(
                .relay,
                "'\(text)' is not a relay address (\(why)); write wss://HOST[:PORT] or ws://HOST[:PORT]"
            )
        }
        let secure: Bool
        var rest: Substring
        if text.hasPrefix("wss://") {
            (secure, rest) = (true, text.dropFirst(6))
        } else if text.hasPrefix("ws://") {
            (secure, rest) = (false, text.dropFirst(5))
        } else {
            throw refuse("it does not start with ws:// or wss://")
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        if let bad = rest.first(where: { "/?#@ ".contains($0) }) { throw refuse("'\(bad)' has no place in it") }
        let host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw refuse("the IPv6 literal has no ']'") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { throw refuse("only a port may follow the ']'") }
            portText = after.isEmpty ? nil : after.dropFirst()
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw refuse("'\(host)' is not an IPv6 address")
            }
        } else {
            let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { throw refuse("an IPv6 address goes in brackets") }
            host = parts[0]
            portText = parts.count == 2 ? parts[1] : nil
            guard !host.isEmpty else { throw refuse("the host is empty") }
        }
        let port: Int
        if let portText {
            guard let number = Int(portText), (1...65535).contains(number) else {
                throw refuse("the port '\(portText)' is not a number from 1 to 65535")
            }
            port = number
        } else {
            port = secure ? 443 : 80
        }
        self.init(secure: secure, host: String(host), port: port)
    }

    /// The dialer for the room of the box with `rendezvousSecret` on this relay: plain for `ws://`; for `wss://`,
    /// verified TLS against the system's trust store plus the CA certificates in `caFile`, if given.
    ///
    /// - Parameters:
    ///   - rendezvousSecret: The QR code's rendezvous secret.
    ///   - caFile: A PEM file of extra trusted CA certificates (a self-hosted relay, `ftw-demobox --tls`).
    ///   - clock: The clock the WebSocket's deadlines run on.
    ///   - wallClock: The wall clock that names the room's epoch.
    ///   - loop: The event loop the sockets live on (the client's executor); nil for the process's shared loop.
    public func dialer(
        rendezvousSecret: [UInt8],
        caFile: String?,
        clock: any Clock<Duration>,
        wallClock: any WallClock,
        loop: EventLoop? = nil
    ) -> RelayDialer {
        RelayDialer(
            host: host,
            port: port,
            rendezvousSecret: rendezvousSecret,
            clock: clock,
            wallClock: wallClock,
            tls: secure ? caFile.map { TLSConfiguration.trusting(caFile: $0) } ?? TLSConfiguration() : nil,
            loop: loop
        )
    }

    /// `wss://HOST:PORT` or `ws://HOST:PORT`, with an IPv6 host in brackets: what ``init(parsing:)`` reads back.
    public var description: String {
        "\(secure ? "wss" : "ws")://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }
}
