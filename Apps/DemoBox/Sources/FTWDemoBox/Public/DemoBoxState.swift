import FTWBus
import Foundation

/// What `ftw-demobox --state DIR` keeps across restarts: the box's keys and the phones it admits, as JSON in
/// `DIR/demobox.json`. The box side is not sealed; it is a demo.
public struct DemoBoxState: Sendable, Hashable, Codable {
    /// The file's name inside the state folder.
    public static let fileName = "demobox.json"

    /// The box's keys.
    public var identity: DemoBoxIdentity
    /// The enrolled phones.
    public var devices: [EnrolledDevice]
    /// The build the box last ran (`hello_ok.box.build`), so a box updated in one run is still updated in the next;
    /// nil in a state written before builds were kept (the default build).
    public var build: String?

    /// Makes a state.
    public init(identity: DemoBoxIdentity, devices: [EnrolledDevice], build: String? = nil) {
        self.identity = identity
        self.devices = devices
        self.build = build
    }

    /// The state kept in `folder`, or nil when there is none yet.
    ///
    /// - Throws: ``DemoBoxError`` `.stateFile` when the file cannot be read or is not a state, `.badIdentity` when
    ///   its keys do not belong together.
    public static func load(folder: String) throws(DemoBoxError) -> DemoBoxState? {
        let url = URL(fileURLWithPath: folder).appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let state: DemoBoxState
        do {
            state = try JSONDecoder().decode(DemoBoxState.self, from: Data(contentsOf: url))
        } catch {
            throw DemoBoxError(.stateFile, "\(url.path) is not a demo box state: \(error)", cause: error)
        }
        let checked = try DemoBoxIdentity(
            staticPrivateKey: state.identity.staticPrivateKey,
            rendezvousSecret: state.identity.rendezvousSecret
        )
        guard checked.staticPublicKey == state.identity.staticPublicKey else {
            throw DemoBoxError(.badIdentity, "\(url.path): the public key does not belong to the private key")
        }
        return state
    }

    /// Writes the state to `folder` (created 0700 if needed), replacing the file whole or not at all.
    ///
    /// The file holds the box's private key and its rendezvous secret, so it is created 0600 before its first byte,
    /// in a folder no other user can list; it is written to a temporary file, flushed, renamed over the old one, and
    /// the folder flushed, so a crash or a power cut leaves the old state or the new, never a torn one. The demo box
    /// saves once at start, so a folder it cannot write is refused before anything depends on it.
    ///
    /// - Throws: ``DemoBoxError`` `.stateFile`, one line naming the path and what is wrong, when it cannot be written.
    public func save(folder: String) throws(DemoBoxError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let bytes: Data
        do {
            bytes = try encoder.encode(self)
        } catch {
            throw DemoBoxError(.stateFile, "cannot encode the state: \(error)", cause: error)
        }
        try StateFolder(path: folder).replace(Self.fileName, with: Array(bytes))
    }
}
