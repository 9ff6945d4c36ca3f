/// An app's join path on the relay, `/r/<epoch>/<handle>/app`.
struct RelayPath: Sendable, Hashable {
    let epoch: Int64
    let handle: String

    /// The path's parts, or nil when it is not an app join path (the box's own uplink is in-process).
    init?(_ path: String) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, parts[1] == "r", parts[4] == "app",
            let epoch = Int64(parts[2]), parts[3].utf8.count == 32,
            parts[3].utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        self.epoch = epoch
        handle = String(parts[3])
    }
}
