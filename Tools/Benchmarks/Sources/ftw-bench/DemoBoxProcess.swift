import FTWClient
import FTWSealInterface
import FTWSpawning
import Foundation
import Synchronization

/// An `ftw-demobox` process on loopback and the phones paired with it, for the benchmarks on the real path: each
/// phone a data folder a child process opens as a phone app opens its own, through `FTWClient` only.
///
/// The box streams at 1 Hz, as a real one does; a phone pairs through the relay it prints (`ws://`, or `wss://`
/// with the CA it makes in its state folder).
final class DemoBoxProcess: Sendable {
    /// The folder everything of one run lives in; removed by ``stop()``.
    let folder: URL
    /// The relay the box prints.
    let relay: String
    /// The CA file a `wss://` relay's certificate chains to; nil for `ws://`.
    let caFile: String?
    private let child: ChildProcess
    private let lines: LineReader
    /// The enrolment link printed before the relay's address: the first phone's.
    private let firstLink: Mutex<String?>

    /// How every enrolment link the box prints starts.
    private static let linkPrefix = "https://app.ftw.energy/p#"

    /// Starts `ftw-demobox` (beside this program) in a new folder under the temporary folder.
    ///
    /// - Throws: ``BenchError`` when the box is not built or does not start.
    init(tls: Bool) throws {
        guard let executable = Tool.product("ftw-demobox") else {
            throw BenchError("ftw-demobox is not built: swift build -c release --product ftw-demobox")
        }
        folder = FileManager.default.temporaryDirectory.appending(path: "ftw-bench-real-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = Pipe()
        child = ChildProcess()
        child.executableURL = executable
        // The relay turns its hour at once (no spread, no beat), as the other wall-clock runs' relays do: spread over
        // production's five minutes, the move of the phone's room (a redial, a handshake, the models asking again)
        // fell anywhere in the first five minutes of an hour, inside a window that only steers clear of the twenty
        // seconds after each five-minute turn, and a window that met it counted a reconnect as frames' cost.
        let arguments = [
            "--port", "0", "--state", folder.appending(path: "box").path, "--rotation-spread", "0ms", "--relay-beat",
            "0ms",
        ]
        child.arguments = arguments + (tls ? ["--tls"] : [])
        child.standardOutput = output
        child.standardError = FileHandle.nullDevice
        try child.run()
        lines = LineReader(output.fileHandleForReading)
        var relay: String?
        var caFile: String?
        var link: String?
        while let line = lines.next() {
            if line.hasPrefix(Self.linkPrefix) { link = line }
            if line.hasPrefix("relay: ") { relay = String(line.dropFirst(7)) }
            if line.hasPrefix("ca: ") { caFile = String(line.dropFirst(4)) }
            if relay != nil && (!tls || caFile != nil) { break }
        }
        guard let relay else { throw BenchError("ftw-demobox printed no relay address") }
        self.relay = relay
        self.caFile = caFile
        firstLink = Mutex(link)
    }

    /// Pairs a new phone, whose data folder is `name` in the run's folder, with the box's current enrolment link.
    ///
    /// - Returns: The phone's data folder and its site.
    func pairPhone(_ name: String) async throws -> (data: URL, site: SiteID) {
        // The box prints a fresh link once a phone enrolled, as a real box redraws its QR code.
        guard let link = firstLink.withLock({ $0.take() }) ?? lines.next(where: { $0.hasPrefix(Self.linkPrefix) })
        else { throw BenchError("ftw-demobox printed no enrolment link") }
        let data = folder.appending(path: name)
        let store = DataFolder(url: data).unlockedStore()
        let paired = try await Pairing.onWallClock(store: store).pair(
            EnrolmentURL(parsing: link),
            relay: RelayAddress(parsing: relay),
            caFile: caFile
        )
        return (data, paired.site)
    }

    /// Stops the box (SIGTERM), waits for it and removes the run's folder.
    func stop() {
        child.terminate()
        child.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// A benchmark that cannot run, and why.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
