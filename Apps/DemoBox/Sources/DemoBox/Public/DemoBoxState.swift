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

    /// Makes a state.
    public init(identity: DemoBoxIdentity, devices: [EnrolledDevice]) {
        self.identity = identity
        self.devices = devices
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
            throw DemoBoxError(.stateFile, "\(url.path) is not a demo box state: \(error)")
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

    /// Writes the state to `folder` (created if needed), replacing the file in one step.
    ///
    /// The file is made 0600 before its first byte: it holds the box's private key and its rendezvous secret.
    ///
    /// - Throws: ``DemoBoxError`` `.stateFile` when it cannot be written.
    public func save(folder: String) throws(DemoBoxError) {
        let directory = URL(fileURLWithPath: folder)
        let file = directory.appendingPathComponent(Self.fileName)
        let temporary = directory.appendingPathComponent(".\(Self.fileName).\(UUID().uuidString)")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let made = FileManager.default.createFile(
                atPath: temporary.path,
                contents: try encoder.encode(self),
                attributes: [.posixPermissions: 0o600]
            )
            guard made, rename(temporary.path, file.path) == 0 else {
                try? FileManager.default.removeItem(at: temporary)
                throw CocoaError(.fileWriteUnknown)
            }
        } catch {
            throw DemoBoxError(.stateFile, "cannot write \(file.path): \(error)")
        }
    }
}
