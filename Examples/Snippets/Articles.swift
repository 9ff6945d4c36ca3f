import FTWClient
import Foundation

/// The Logging article: a sink of the app's own.
struct StandardErrorSink: LogSink {
    func log(_ entry: LogEntry) {
        FileHandle.standardError.write(Data("\(entry.atMs) [\(entry.category)] \(entry.message)\n".utf8))
    }
}

/// The article on testing against the demo box: pair through its relay once, then run as against a real box.
func againstTheDemoBox(link: String, relayAddress: String, folder: DataFolder) async throws {
    let store = try folder.open()
    let relay = try RelayAddress(parsing: relayAddress)  // what ftw-demobox prints: ws://127.0.0.1:PORT
    var site = await PairedSite.read(site: try EnrolmentURL(parsing: link).site, from: store)
    if site == nil {
        site = try await Pairing.onWallClock(store: store).pair(try EnrolmentURL(parsing: link), relay: relay)
    }
    guard let site else { return }
    try await HeadlessClient.run(paired: site, store: store) { client in
        try await client.setPhase(.active)
        client.show(.now)
        let live = await client.observeHomeScreen().first { $0.isLive }
        print(live.map(String.init(describing:)) ?? "closed before it was live")
    }  // the demo box logs `stream 1 left the room: close 1000`
}
