/// Connects to the first of a host's addresses that answers, by Happy Eyeballs version 2 (RFC 8305): the addresses
/// of both families interleaved, IPv6 first (§4); one attempt at a time until the next is due 250 ms after the last
/// started (the Connection Attempt Delay, §5), or at once when the last failed; the first to connect wins and every
/// other attempt is closed.
///
/// A name whose first address is black-holed (a broken IPv6 path is common: SYNs vanish, nothing answers) costs a
/// dial 250 ms rather than its whole deadline, and every dial after it the same, where trying the addresses one after
/// another waited out the dial's deadline on the first every time. The stagger sleeps on the dial's injected clock;
/// each attempt is a non-blocking connect the event loop reports on, so nothing blocks a thread.
struct HappyEyeballs<Connection: Sendable> {
    /// How long an attempt has alone before the next starts beside it: RFC 8305 §8's recommended 250 ms.
    static var attemptDelay: Duration { .milliseconds(250) }

    /// The addresses in the order they are tried.
    let addresses: [SocketAddress]
    let clock: any Clock<Duration>
    /// One attempt: the connection, or why it failed (the system's reason).
    let attempt: @Sendable (SocketAddress) async -> Result<Connection, WebSocketError>

    init(
        addresses: [SocketAddress],
        clock: any Clock<Duration>,
        attempt: @escaping @Sendable (SocketAddress) async -> Result<Connection, WebSocketError>
    ) {
        self.addresses = Self.interleaved(addresses)
        self.clock = clock
        self.attempt = attempt
    }

    /// `addresses` with their families taking turns, IPv6 first, each family in the resolver's order (§4).
    static func interleaved(_ addresses: [SocketAddress]) -> [SocketAddress] {
        var preferred = addresses.filter(\.isIPv6)[...]
        var other = addresses.filter { !$0.isIPv6 }[...]
        var ordered: [SocketAddress] = []
        ordered.reserveCapacity(addresses.count)
        while let next = preferred.popFirst() ?? other.popFirst() {
            ordered.append(next)
            swap(&preferred, &other)
        }
        return ordered
    }

    private enum Event: Sendable {
        case connected(Connection)
        case failed(index: Int, WebSocketError)
        /// The stagger after attempt `index` started has passed.
        case due(after: Int)
    }

    /// Runs the attempts until one connects.
    ///
    /// - Parameters:
    ///   - dial: The dial the attempts belong to: once it is given up, no attempt starts and its error is thrown.
    ///   - naming: The host as dialled (`host:port`, and the host alone), for the error when none connects.
    ///   - losers: Where a connection that won after another is handed, to be closed.
    /// - Throws: ``WebSocketError/Code/connectFailed`` when every attempt failed, naming each address once with its
    ///   reason, in the order tried (``failureMessage(peer:host:_:)``); or the dial's abort error.
    func run(
        dial: DialAttempt,
        naming: (peer: String, host: String),
        closing losers: @escaping @Sendable (Connection) -> Void
    ) async throws(WebSocketError) -> Connection {
        let outcome = await withTaskGroup(of: Event.self) { group -> Result<Connection, WebSocketError> in
            var started = 0
            var running = 0
            var failures: [(address: SocketAddress, reason: WebSocketError)] = []
            func startNext(_ group: inout TaskGroup<Event>) {
                let index = started
                started += 1
                running += 1
                group.addTask { [attempt, addresses] in
                    switch await attempt(addresses[index]) {
                    case .success(let connection): .connected(connection)
                    case .failure(let error): .failed(index: index, error)
                    }
                }
                guard started < addresses.count else { return }
                group.addTask { [clock] in
                    try? await clock.sleep(for: Self.attemptDelay)
                    return .due(after: index)
                }
            }
            if !addresses.isEmpty { startNext(&group) }
            var winner: Connection?
            while winner == nil, running > 0, let event = await group.next() {
                switch event {
                case .connected(let connection):
                    winner = connection
                case .failed(let index, let error):
                    running -= 1
                    failures.append((addresses[index], error))
                    if dial.abortError == nil, started < addresses.count { startNext(&group) }
                case .due(let index):
                    if index == started - 1, started < addresses.count, dial.abortError == nil { startNext(&group) }
                }
            }
            group.cancelAll()
            while let late = await group.next() {
                if case .connected(let loser) = late { losers(loser) }
            }
            if let abort = dial.abortError { return .failure(abort) }
            return winner.map { .success($0) }
                ?? .failure(
                    WebSocketError(.connectFailed, Self.failureMessage(peer: naming.peer, host: naming.host, failures))
                )
        }
        return try outcome.get()
    }

    /// Why no address connected, each address named once with the system's reason: `127.0.0.1:4100: connect:
    /// Connection refused` for an address literal; `relay.example:443 (127.0.0.1): …` for a name with one address;
    /// `relay.example:443: ::1 connect: …; 127.0.0.1 connect: …` for several.
    static func failureMessage(
        peer: String,
        host: String,
        _ failures: [(address: SocketAddress, reason: WebSocketError)]
    ) -> String {
        guard let only = failures.first else { return "\(peer): name lookup: the name has no address" }
        guard failures.count > 1 else {
            let address = only.address.text
            return "\(address == host ? peer : "\(peer) (\(address))"): \(only.reason.message)"
        }
        return "\(peer): " + failures.map { "\($0.address.text) \($0.reason.message)" }.joined(separator: "; ")
    }
}
