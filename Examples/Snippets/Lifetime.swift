import FTWClient

/// The lifetime section of docs/composing.md: a client held by the app rather than scoped, closed by hand.
func heldClient(site: PairedSite, store: any SealedStore) async throws {
    let client = try HeadlessClient.onWallClock(paired: site, store: store)
    _ = await client.launch()  // what the sealed files draw before anything connects
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await client.run() }  // returns once the client is closed
        try await client.setPhase(.active)
        client.show(.now)
        try await Task.sleep(for: .seconds(5))
        await client.close()  // seals, closes the session with 1000, ends run() and every observation
    }
}

/// The lifetime section: a program in a terminal, closed by Ctrl-C or SIGTERM as the end of its scope would close it.
func terminalProgram(site: PairedSite, store: any SealedStore) async throws {
    try await HeadlessClient.run(paired: site, store: store, shutdownSignals: [.interrupt, .terminate]) { client in
        try await client.setPhase(.active)
        client.show(.now)
        for await screen in client.observeHomeScreen() { print(screen) }  // ends at the close a signal begins
    }  // after Ctrl-C: the box saw a close frame (1000), the files are sealed, and the program goes on here
}

/// The forgetting section: a person removes the home from the app, or signs out.
func removed(site: PairedSite, folder: DataFolder, signingOut: Bool) async throws {
    try await HeadlessClient.run(paired: site, store: try folder.open()) { client in
        try await client.setPhase(.active)
        // The session closes with 1000 and every service stops before a file goes; the pairing record goes last,
        // and for the whole phone the key after every file: a kill at any step leaves a folder the next run reads.
        try await client.forget(signingOut ? .phone : .site)
    }
}

/// The logging section: the session's lines by category.
func logged(site: PairedSite, store: any SealedStore) async throws {
    let log = InMemoryLogSink()
    try await HeadlessClient.run(paired: site, store: store, log: log) { client in
        try await client.setPhase(.active)
        try await Task.sleep(for: .seconds(5))
    }
    for entry in log.entries(category: "asks") { print(entry.atMs, entry.message) }
}

/// The errors section: a one-line message for a person, the code and the cause for a program.
func explained(_ error: any Error) -> String {
    if let error = error as? EnrolmentError, error.code == .relayNotTrusted {
        return "the relay's certificate did not verify: \(error.message)"
    }
    if let error = error as? SessionError, let cause = error.cause {
        return "\(error) (beneath it: \(cause))"
    }
    return "\(error)"
}
