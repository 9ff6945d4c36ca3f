// Pairs with a box from its enrolment link (once: a second run finds the site in the data folder), greets it, draws
// what the sealed files hold, shows the home screen for a few seconds and prints what a person would see. Usage:
//     minimal-client LINK --relay ws://127.0.0.1:8787 [--seconds 5] [--data DIR]
import FTWClient
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String) -> String? {
    guard let at = arguments.firstIndex(of: name), at + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(at...(at + 1)) }
    return arguments[at + 1]
}
let relay = try option("--relay").map { try RelayAddress(parsing: $0) }
let seconds = Int(option("--seconds") ?? "5") ?? 5
let folder = option("--data").map { DataFolder(url: URL(fileURLWithPath: $0)) } ?? .standard
guard let text = arguments.first else {
    print("usage: minimal-client LINK [--relay ADDRESS] [--seconds N] [--data DIR]")
    exit(2)
}

let store = folder.store()
let pairing = Pairing.onWallClock(store: store)
let link = try EnrolmentURL(parsing: text)
let site: PairedSite
if let known = await PairedSite.read(site: link.site, from: store), known.pairingCode.isEmpty {
    site = known
} else {
    site = try await pairing.pair(link, relay: relay ?? .demoBox)
    print("paired with site \(site.site) as \(site.role ?? "?")")
}
let hello = try await pairing.greet(site)
print("greeted: the box knows this phone as \(hello.role.rawValue)")

let client = try HeadlessClient.onWallClock(paired: site, store: store, policy: .ageKeyed)
let drawn = await client.launch()
print("drawn before connecting: \(drawn)")
try await withThrowingTaskGroup(of: Void.self) { group in
    group.addTask { try await client.run() }
    await client.setPhase(.inactive)
    await client.setPhase(.active)
    client.show(.now)
    try await Task.sleep(for: .seconds(seconds))
    let nowMs = Int64(Date().timeIntervalSince1970 * 1000)
    print(await HomeScreen.read(from: client, nowMs: nowMs))
    await client.setPhase(.background)
    group.cancelAll()
}
