import FTWBus
import FTWCache
import FTWClient
import FTWClockSeamTesting
import FTWFixtures
import FTWHeadlessTooling
import FTWHistory
import FTWSeal
import FTWSealInterface
import FTWSession
import FTWSessionTestSupport
import FTWTrace
import Foundation
import Testing

/// Files that survive every update (issue 32): the data folders of the golden corpus (`Tests/SealedCorpus`), each
/// written by a release or by the build that changed a format, open in this build and draw what they drew, value
/// by value; and every format this build writes has a folder of the corpus in it, so a format changed, or a kind of
/// file added, without a new folder fails here.
@Suite struct SealedCorpusTests {
    /// The corpus: one folder per release or format change, and beside each what it draws (`<folder>.drawn`).
    static let corpus = Vectors.repositoryRoot.appendingPathComponent("Tests/SealedCorpus")
    static let folders = ["0.1.0", "key-id", "every-file"]
    /// The instant each folder is opened at: a minute after its tour's last write, so ages and the history window
    /// are those of a relaunch right after it.
    static let openedAtMs: Int64 = 1_796_202_180_000

    /// Opens a copy of the folder as a relaunch does and compares what every model draws with `<folder>.drawn`
    /// (`FTW_WRITE_GOLDEN=1` writes that file instead, for a new folder). The launch says nothing and writes nothing.
    @Test(arguments: folders) func aFolderOfTheCorpusDrawsWhatItDrew(folder name: String) async throws {
        let scratch = try ScratchFolder()
        let copy = scratch.url.appendingPathComponent("phone")
        try FileManager.default.copyItem(at: Self.corpus.appendingPathComponent(name), to: copy)
        // The key as the release left it, 0600: git keeps no mode but the executable bit, so a checkout has it 0644.
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o600],
            ofItemAtPath: copy.appendingPathComponent(FileKeyProvider.fileName).path
        )
        let before = Self.files(in: copy)
        let drawn = try await Self.drawing(of: DataFolder(url: copy))
        let golden = Self.corpus.appendingPathComponent("\(name).drawn")
        if ProcessInfo.processInfo.environment["FTW_WRITE_GOLDEN"] == "1" {
            try drawn.text.write(to: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        let lines = drawn.text.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == expectedLines.count)
        for (line, wanted) in zip(lines, expectedLines) { #expect(line == wanted) }
        #expect(drawn.told == [], "the launch said nothing")
        // What the release itself drew from the same files, at the same instant, where the corpus kept it.
        let ownDrawing = Self.corpus.appendingPathComponent("\(name).drawn-by-\(name).json")
        if FileManager.default.fileExists(atPath: ownDrawing.path) {
            let own = try JSONDecoder().decode(DrawnFromFiles.self, from: Data(contentsOf: ownDrawing))
            #expect(drawn.counted == own, "\(name) drew \(own); this build draws \(drawn.counted)")
        }
        #expect(Self.files(in: copy) == before, "the launch wrote nothing")
    }

    /// Every format this build writes, kind by kind, with the version it writes: the corpus must hold a file of
    /// each kind in that version. Bumping a version without adding a folder written by it fails here.
    @Test func everyFormatThisBuildWritesHasAFolderInTheCorpus() throws {
        let found = try Self.corpusVersions()
        for (kind, version) in Self.current.sorted(by: { $0.key < $1.key }) {
            let missing =
                "no folder of Tests/SealedCorpus holds a \(kind) file in format \(version), the one this build writes"
                + " (it holds \(found[kind]?.sorted() ?? [])): add a folder written by this build"
            #expect(found[kind]?.contains(version) == true, Comment(rawValue: missing))
        }
    }

    /// Every file this build writes, found by writing them: the corpus scenario that opens every view and has a read
    /// refused (`every-file.scenario`), run now into a fresh folder. Each kind it wrote is one ``current`` names, in
    /// the version it names, and a folder of the corpus holds it: a new kind of file (as `history-<site>` was) fails
    /// here until the corpus has it.
    @Test func everyFileThisBuildWritesIsAKindTheCorpusHolds() async throws {
        let scratch = try ScratchFolder()
        let data = scratch.url.appendingPathComponent("phone")
        let scenario = Self.corpus.appendingPathComponent("every-file.scenario").path
        #expect(await HeadlessCommand.run(["run", scenario, "--data", data.path, "--json"]) == 0)
        let written = try Self.versions(in: data)
        let found = try Self.corpusVersions()
        for (kind, version) in written {
            #expect(Self.current[kind] == version, "this build wrote a \(kind) file in format \(version)")
            #expect(found[kind]?.contains(version) == true, "no folder of Tests/SealedCorpus holds a \(kind) file")
        }
        #expect(Set(written.map(\.0)) == Set(Self.current.keys), "the scenario writes every kind of file")
    }

    /// The version of every kind of file this build writes.
    private static var current: [String: UInt8] {
        let contents = SealedContents.version
        return [
            "sealed": SealedFileFormat.version, "key-id": KeyMark.version, "ring": RingFile.version,
            "tiles": TilesFile.version, "snapshot": contents, "home": contents, "chargers": contents, "prefs": contents,
            "status": contents, "plan": contents, "prices": contents, "pairing": contents, "history": contents,
        ]
    }

    /// The versions the corpus holds, by kind.
    private static func corpusVersions() throws -> [String: Set<UInt8>] {
        var found: [String: Set<UInt8>] = [:]
        for name in folders {
            for (kind, version) in try versions(in: corpus.appendingPathComponent(name)) {
                found[kind, default: []].insert(version)
            }
        }
        return found
    }

    /// The format version of every file in the data folder at `url`, by kind: the sealed file's own (its header),
    /// and the one inside the seal (opened under the folder's key).
    private static func versions(in url: URL) throws -> [(String, UInt8)] {
        let folder = DataFolder(url: url)
        let key = Array(try Data(contentsOf: url.appendingPathComponent("phone.key")))
        var versions: [(String, UInt8)] = []
        for entry in try FileManager.default.contentsOfDirectory(atPath: folder.sealedFolder.path) {
            let bytes = Array(try Data(contentsOf: folder.sealedFolder.appendingPathComponent(entry)))
            if entry == KeyMark.fileName {
                let marked = String(decoding: bytes, as: UTF8.self) == KeyMark.id(of: key) + "\n"
                if marked { versions.append(("key-id", 1)) }
                continue
            }
            guard let name = SealedFileName(fileName: entry) else { continue }
            versions.append(("sealed", bytes[4]))
            let plain = try SealedFileFormat.open(bytes, as: name, key: key)
            switch name.kind {
            case .ring: versions.append(("ring", plain[0]))
            case .tiles: versions.append(("tiles", plain[0]))
            case .snapshot: versions.append(("snapshot", plain[4]))
            case .home: versions.append(("home", plain[4]))
            case .kept: versions.append((name.model ?? "kept", plain[4]))
            }
        }
        return versions
    }

    /// What a relaunch on `folder` draws, every model's value written out, and what its store had to say.
    private static func drawing(
        of folder: DataFolder
    ) async throws -> (text: String, counted: DrawnFromFiles, told: [String]) {
        let bus = EventBus<SealEvent>()
        let events = bus.subscribe()
        let store = folder.unlockedStore(events: bus)
        let site = try #require(await store.files().first?.name.site)
        let paired = try #require(await PairedSite.read(site: site, from: store))
        let clock = ManualClock(originMs: openedAtMs)
        let client = HeadlessClient(
            paired: paired,
            store: store,
            dialer: InMemoryDialer(),
            clock: clock,
            wallClock: clock,
            random: SeededRandomSource(seed: 1),
            policy: .ageKeyed,
            log: DiscardingLogSink()
        )
        let drawn = await client.launch()
        var lines = ["drawn: \(drawn)", "pairing: \(CanonicalText.of(paired))"]
        lines.append("home: \(CanonicalText.of(client.home.identity as Any))")
        lines.append("snapshot: \(CanonicalText.of(await client.snapshot.shown as Any))")
        lines.append("chargers: \(CanonicalText.of(await client.chargers.stored as Any))")
        lines.append("prefs: \(CanonicalText.of(await client.prefs.stored as Any))")
        lines.append("plan: \(CanonicalText.of(await client.plan.stored as Any))")
        lines.append("prices: \(CanonicalText.of(await client.prices.stored as Any))")
        lines.append("status: \(CanonicalText.of(await client.status.stored as Any))")
        for field in await client.trace.fields {
            lines.append("trace \(field): \(CanonicalText.of(await client.trace.points(field: field)))")
        }
        lines.append("history: \(CanonicalText.of(await client.history.window))")
        // The refusing build is read as the history's loop starts (a launch's first frame does not wait for it): a
        // loop with nothing to handle reads it and ends.
        client.history.finish()
        try await client.history.run()
        lines.append("history refused on build: \(CanonicalText.of(await client.history.refusedOnBuild as Any))")
        bus.finish()
        var told: [String] = []
        for await event in events where event.mustBeTold { told.append(event.description) }
        return (lines.joined(separator: "\n") + "\n", drawn, told)
    }

    private static func files(in url: URL) -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: url.path)
        while let path = enumerator?.nextObject() as? String {
            files[path] = FileManager.default.contents(atPath: url.appendingPathComponent(path).path)
        }
        return files
    }
}
