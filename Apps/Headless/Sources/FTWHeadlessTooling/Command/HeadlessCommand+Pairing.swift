import FTWBoxProtocol
import FTWBus
import FTWClient
import FTWClockSeam
import FTWSeal
import FTWSealInterface
import FTWSession
import Foundation

/// `pair`, `greet`, `sites` and `forget`: the phone's side of enrolment, through the production relay (a real box)
/// or `ftw-demobox`'s.
extension HeadlessCommand {
    static let pairingUsage = """
          pair URL [--relay wss://HOST[:PORT] | ws://HOST[:PORT]] [--ca FILE] [--data DIR]
              Pairs with the box whose enrolment link is URL (the QR code's text), through wss://relay.ftw.energy
              unless --relay names another (ftw-demobox prints its own); --ca trusts a PEM CA file besides the
              system's certificates (ftw-demobox --tls prints its CA file).
          greet [SITE] [--relay ADDRESS] [--ca FILE] [--data DIR]
              Reconnects to a paired site as a known device (through a new relay address, if given).
          sites [--data DIR]
              Lists the paired sites.
          forget SITE | --all [--data DIR]
              Erases a site's sealed files, or (--all) the phone's key and every sealed file.
          The phone's files are in $XDG_DATA_HOME/ftw-headless, or $HOME/.local/share/ftw-headless, unless --data
          names another folder.
        """

    static func pair(_ options: inout CommandOptions) async throws -> Int32 {
        let (relay, caFile) = try relayOptions(&options)
        let folder = try dataFolder(&options)
        guard let text = options.positional() else { throw CommandError("'pair' needs the box's enrolment link") }
        try options.finish()
        let link = try EnrolmentURL(parsing: text)
        let site = try await reportingSealedFiles(folder) { store in
            try await pairing(store).pair(link, relay: relay ?? .production, caFile: caFile)
        }
        print("paired with site \(site.site) as \(site.role ?? "?")")
        print(describe(site))
        return 0
    }

    static func greet(_ options: inout CommandOptions) async throws -> Int32 {
        let (relay, caFile) = try relayOptions(&options)
        let folder = try dataFolder(&options)
        let name = options.positional()
        try options.finish()
        let (site, hello) = try await reportingSealedFiles(folder) { store in
            let site = try await pairedSite(name, in: store, folder: folder)
            return (site, try await pairing(store).greet(site, relay: relay, caFile: caFile))
        }
        print("site \(site.site) knows this phone: \(hello.role.rawValue), box \(hello.box.id)")
        return 0
    }

    static func sites(_ options: inout CommandOptions) async throws -> Int32 {
        let folder = try dataFolder(&options)
        try options.finish()
        let (sites, unread) = try await reportingSealedFiles(folder) { store in
            let sites = await PairedSite.all(in: store)
            return (sites, await unreadRecords(in: store, folder: folder, read: sites))
        }
        if sites.isEmpty, unread == nil { print("no paired sites in \(folder.url.path)") }
        for site in sites {
            print(
                "\(site.site)  \(site.role ?? "pending (the box never confirmed it): pair or greet again")\n\(describe(site))"
            )
        }
        if let unread { throw unread }
        return 0
    }

    static func forget(_ options: inout CommandOptions) async throws -> Int32 {
        let all = options.flag("--all")
        let data = try options.folder("--data")
        let name = options.positional()
        try options.finish()
        guard all || name != nil else {
            throw CommandError("'forget' erases for good: name the site (forget SITE), or every file (forget --all)")
        }
        let folder = data.map { DataFolder(url: $0) } ?? standardFolder()
        if all {
            guard name == nil else { throw CommandError("'forget' takes a site or --all, not both") }
            guard FileManager.default.fileExists(atPath: folder.url.path) else {
                print("nothing to forget: there is no data folder at \(folder.url.path)")
                return 0
            }
            let count = try await reportingSealedFiles(folder, erasingFolder: true) { store in
                let count = await store.files().count
                try await store.eraseAll()
                return count
            }
            print("forgot this phone: its key and \(count) sealed files")
            return 0
        }
        let (site, count) = try await reportingSealedFiles(folder) { store in
            // A site named by its id is erased even when its record cannot be read (a lost key strands no file).
            let site: SiteID
            if let named = name.flatMap(SiteID.init(rawValue:)) {
                site = named
            } else {
                site = try await pairedSite(name, in: store, folder: folder).site
            }
            let count = await store.files().filter { $0.name.site == site }.count
            guard count > 0 else {
                throw EnrolmentError(.unknownSite, "no sealed file of site '\(site)' in \(folder.url.path)")
            }
            try await PairedSite.forget(site: site, in: store)
            return (site, count)
        }
        print("forgot site \(site): \(count) sealed files")
        return 0
    }

    /// Runs `body` on the phone's store, then says on stderr, one line each, what the store had to report: a file
    /// dropped as proven bad, one it could not read or write, a key it had to tighten. A pairing command that works
    /// on a damaged folder is never silent about it. A sealed folder that could not be listed ends the command with
    /// its name and the system's reason, whatever `body` concluded from seeing no file there (that there is no
    /// paired site, and one must be paired: a code spent for nothing).
    ///
    /// The store holds the folder's lock (`held`, or its own) while `body` runs (another client's is refused at once, before anything is
    /// written); with `erasingFolder`, once `body` has erased every file, the lock file and the emptied folders go
    /// before the lock is let go.
    static func reportingSealedFiles<T: Sendable>(
        _ folder: DataFolder,
        erasingFolder: Bool = false,
        lock held: FolderLock? = nil,
        _ body: (FileSealedStore) async throws -> T
    ) async throws -> T {
        let lock = try held ?? FolderLock(folder: folder.url)
        let bus = EventBus<SealEvent>()
        let events = bus.subscribe()
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try await body(folder.store(events: bus, lock: lock)))
            if erasingFolder {
                lock?.removeFile()
                folder.removeEmptyFolders()
            }
        } catch {
            outcome = .failure(error)
        }
        bus.finish()
        var unlisted: SealError?
        for await event in events {
            if case .listFailed(_, let error) = event {
                unlisted = error
            } else if event.mustBeTold {
                FileHandle.standardError.write(Data("ftw-headless: \(event)\n".utf8))
            }
        }
        if let unlisted {
            throw CommandError(
                "the phone's sealed files in \(folder.sealedFolder.path) could not be listed (\(unlisted.message));"
                    + " they are left as they are: let this user read that folder, or name another with --data"
            )
        }
        return try outcome.get()
    }

    /// What to say of pairing records in `store` (of `site`, when named) that exist and did not read into `read`,
    /// which the store said above, one line each; nil when there are none. "Pair one first" would spend a code on a
    /// box that may know this phone, when the key or the file is at fault.
    static func unreadRecords(
        in store: any SealedStore,
        folder: DataFolder,
        read: [PairedSite],
        of site: String? = nil
    ) async -> EnrolmentError? {
        let unread = await store.files().filter { file in
            file.name.kind == .kept && file.name.model == PairedSite.fileModel
                && site.map { file.name.site.rawValue == $0 } ?? true
                && !read.contains { $0.site == file.name.site }
        }
        guard !unread.isEmpty else { return nil }
        let names = unread.map(\.name.fileName).joined(separator: ", ")
        return EnrolmentError(
            .unknownSite,
            "\(names) in \(folder.sealedFolder.path) did not open (said above) and is kept: pairing again would not"
                + " bring it back"
        )
    }

    /// `--real-time [--site SITE]`: the paired site to run against on the wall clock (nil for the embedded box),
    /// in the data folder `run` was given (`--data`) or the standard one; `--site` alone is refused.
    static func wallClockSite(
        _ options: inout CommandOptions,
        data: URL?
    ) throws -> (name: String?, folder: DataFolder)? {
        let realTime = options.flag("--real-time")
        let name = try options.value("--site")
        guard realTime else {
            if name != nil { throw CommandError("'--site' goes with '--real-time'") }
            return nil
        }
        return (name, data.map { DataFolder(url: $0) } ?? standardFolder())
    }

    /// Runs `runner` on the wall clock against the paired site `site` names.
    static func runOnWallClock(
        _ runner: ScenarioRunner,
        site: (name: String?, folder: DataFolder)
    ) async throws -> (report: ScenarioReport, picture: SVGChart?) {
        // One lock for the whole run: the folder is never free between reading the site and running on it.
        let lock = try FolderLock(folder: site.folder.url)
        let paired = try await reportingSealedFiles(site.folder, lock: lock) { store in
            try await pairedSite(site.name, in: store, folder: site.folder)
        }
        return try await runner.runOnWallClock(site: paired.site, folder: site.folder, lock: lock)
    }

    /// `--relay ADDRESS` (nil when not given) and `--ca FILE`, which must be a file this process can read.
    static func relayOptions(_ options: inout CommandOptions) throws -> (relay: RelayAddress?, caFile: String?) {
        let relay = try options.value("--relay").map { text throws(EnrolmentError) in try RelayAddress(parsing: text) }
        let caFile = try options.value("--ca")
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw CommandError("--ca \(caFile): no readable file there (a PEM file of CA certificates)")
        }
        if caFile != nil, relay.map({ !$0.secure }) ?? false {
            throw CommandError(
                "--ca goes with a wss:// relay; \(relay.map(String.init(describing:)) ?? "") speaks no TLS"
            )
        }
        return (relay, caFile)
    }

    /// `--data DIR`, or the standard folder.
    static func dataFolder(_ options: inout CommandOptions) throws -> DataFolder {
        try options.folder("--data").map { DataFolder(url: $0) } ?? standardFolder()
    }

    /// The platform's place for the phone's files, where an older build's folder is moved first (and said so).
    static func standardFolder() -> DataFolder {
        let (folder, note) = DataFolder.standardFollowingOlder(environment: ProcessInfo.processInfo.environment)
        if let note { FileHandle.standardError.write(Data("ftw-headless: \(note)\n".utf8)) }
        return folder
    }

    /// The paired site named `name` in `store` (the phone's, in `folder`), or the only one when no name is given.
    static func pairedSite(_ name: String?, in store: any SealedStore, folder: DataFolder) async throws -> PairedSite {
        let sites = await PairedSite.all(in: store)
        if name.map({ name in !sites.contains { $0.site.rawValue == name } }) ?? sites.isEmpty,
            let unread = await unreadRecords(in: store, folder: folder, read: sites, of: name)
        {
            throw unread
        }
        if let name {
            guard let site = sites.first(where: { $0.site.rawValue == name }) else {
                throw EnrolmentError(.unknownSite, "no paired site '\(name)' in \(folder.url.path)")
            }
            return site
        }
        guard sites.count == 1 else {
            throw EnrolmentError(
                .unknownSite,
                sites.isEmpty ? "no paired site in \(folder.url.path): pair one first" : "name one of the paired sites"
            )
        }
        return sites[0]
    }

    private static func pairing(_ store: any SealedStore) -> Pairing {
        Pairing.onWallClock(store: store)
    }

    private static func describe(_ site: PairedSite) -> String {
        let device = DeviceID(privateKey: site.devicePrivateKey).map(\.rawValue) ?? "?"
        let trust = site.caFile.map { ", trusting \($0)" } ?? ""
        return
            "  device \(device), relay \(site.relay ?? "in-process")\(trust), scopes \(site.scopes.joined(separator: " "))"
    }
}
