import FTWBus
import FTWClient
import FTWClockSeamTesting
import FTWDemoBox
import FTWSeal
import FTWSealInterface
import FTWSealTestSupport
import Foundation
import Testing

/// `HeadlessClient.forget(_:)`, ordered and kill-safe (issue 32): the stream is closed with 1000 before any file
/// goes, then the site's files go with its pairing record last, or (the whole phone) every file and then the key;
/// a kill at any step leaves a folder the next run reads without an error, which forgot or did not, and never holds
/// a file without its key.
@Suite struct ClientForgetTests {
    /// Over real sockets: a live client forgets, killed right after the erase's first removal. At that removal the
    /// relay had read the close frame (1000) of the client's stream, its latest (its socket's code, read at that
    /// instant); the folder the kill left reads without an error.
    @Test(arguments: [ForgetScope.site, .phone])
    func theBoxSawTheCloseBeforeAnyFileWent(_ scope: ForgetScope) async throws {
        try await RelayPhone.run { site, folder, _, relay in
            let kill = EraseKill(afterStep: 1)
            let atFirstRemoval = Recorded<[Int: UInt16?]>()
            let removal: @Sendable (String) throws(SealError) -> Void = { name throws(SealError) in
                if kill.removed.isEmpty { atFirstRemoval.append(relay.closeCodes) }
                try kill.hook(name)
            }
            try await Self.liveThenForget(site, folder, scope, afterRemoval: removal)
            let codes = try #require(atFirstRemoval.all.first)
            let latest = try #require(codes.keys.max())
            #expect(latest > 1, "the client's stream, after the pairing's: \(codes)")
            #expect(codes[latest] == 1000, "the client's close, as the relay had read it: \(codes)")
            #expect(kill.removed.count == 1, "\(kill.removed)")
            let next = try await Self.nextRun(on: folder, site: site.site)
            #expect(next.told == [], "the next run read it without an error")
            #expect(next.files.unopened == [])
            #expect(next.files.keyExisted, "one file gone, the key still there")
            if scope == .site {
                #expect(next.files.files.contains("pairing-\(site.site)"), "one file gone, the home still paired")
            }
        }
    }

    /// On the simulated demo box: a stay that leaves sealed files, then, on a copy of the folder each time, a stay
    /// ended by a forget killed after its first removal, its second, and so on until a forget runs whole; each
    /// leaves a folder the next run reads without an error.
    @Test(arguments: [ForgetScope.site, .phone])
    func aKillAtEveryStepLeavesAFolderTheNextRunReads(_ scope: ForgetScope) async throws {
        try await ClientWorld.run { world in
            try await world.leaveSealedFiles()
            var step = 1
            while try await Self.forgetKilled(afterStep: step, scope, in: world) { step += 1 }
            #expect(step > 5, "the forget had a step for each file, and the key")
        }
    }

    /// A file a service was writing when the forget began lands before the erase, not after it: the forget waits
    /// for every service to stop. The writes of a live stay are held on their way to the disk until the forget has
    /// closed the stream; a forget that erased then would find the home's files written after it.
    @Test func aWriteOnItsWayWhenTheForgetBeginsIsErasedWithTheRest() async throws {
        try await ClientWorld.run { world in
            let held = HeldReadStore(world.phone.folder.unlockedStore(), holding: .writes)
            let client = world.client(store: held)
            _ = await client.launch()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await client.run() }
                await world.simulation.settle()
                try await client.setPhase(.active)
                client.show(.now)
                await world.simulation.advance(by: .seconds(5))
                #expect(await held.heldReads > 0, "the stay's writes are on their way")
                group.addTask { try await client.forget() }
                await world.simulation.advance(by: .seconds(10))
                await held.release()
                try await group.waitForAll()
            }
            let left = await world.phone.folder.unlockedStore().files().map(\.name.fileName)
            #expect(left.filter { $0.hasSuffix("-\(world.site.site)") } == [], "\(left)")
        }
    }

    /// A live client on `folder`, its store holding the folder's lock as `open()` does and calling `afterRemoval`
    /// after each file its erase removes, that forgets; a run the forget left going is then cancelled.
    private static func liveThenForget(
        _ site: PairedSite,
        _ folder: DataFolder,
        _ scope: ForgetScope,
        afterRemoval: @escaping @Sendable (String) throws(SealError) -> Void
    ) async throws {
        let lock = try FolderLock(folder: folder.url)
        let store = folder.store(events: EventBus(), lock: lock, afterRemoval: afterRemoval)
        let client = try HeadlessClient.onWallClock(paired: site, store: store)
        _ = await client.launch()
        let running = Task { try await client.run() }
        try await RelayPhone.untilLive(client)
        await #expect(throws: SealError.self) { try await client.forget(scope) }
        running.cancel()
        _ = await running.result
    }

    /// On a copy of the world's folder, a stay ended by a forget killed after `step` removals; checks what the next
    /// run reads, and says whether the kill struck (false once the forget ran whole).
    private static func forgetKilled(
        afterStep step: Int,
        _ scope: ForgetScope,
        in world: ClientWorld
    ) async throws -> Bool {
        let folder = PhoneWorld.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        try FileManager.default.copyItem(at: world.phone.folder.url, to: folder.url)
        let site = world.site.site
        let kill = EraseKill(afterStep: step)
        let client = world.client(store: folder.store(events: EventBus(), lock: nil, afterRemoval: kill.hook))
        _ = await client.launch()
        let forgot = Recorded<Bool>()
        // The kill ends the stay: a client the forget left running is closed, so the stay ends either way.
        let forget: @Sendable () async -> Void = {
            forgot.append((try? await client.forget(scope)) != nil)
            await client.close()
        }
        try await world.stay(of: client, endingWith: forget) {
            try await client.setPhase(.active)
            client.show(.now)
            await world.simulation.advance(by: .seconds(5))
        }
        #expect(forgot.all == [!kill.struck], "step \(step)")
        let next = try await nextRun(on: folder, site: site)
        #expect(next.told == [], "step \(step): the next run read it without an error")
        #expect(next.files.unopened == [], "step \(step): every file left opens")
        let siteFiles = next.files.files.filter { $0.hasSuffix("-\(site)") }
        switch scope {
        case .site:
            #expect(siteFiles.isEmpty || siteFiles.contains("pairing-\(site)"), "step \(step): files unpaired")
            #expect(next.files.keyExisted, "step \(step): the phone's key stays")
            if !kill.struck { #expect(siteFiles == [], "forgot the home whole") }
        case .phone:
            if !next.files.files.isEmpty { #expect(next.files.keyExisted, "step \(step): files without a key") }
            if !kill.struck { #expect(next.files.files == [] && !next.files.keyExisted, "forgot the phone whole") }
        }
        return kill.struck
    }

    /// What the next run reads on `folder`: every sealed file as a launch opens it (the key looked for before
    /// anything could make a new one), then a client launched on the home's pairing record, when one is left, with
    /// every line either had to say.
    private static func nextRun(
        on folder: DataFolder,
        site: SiteID
    ) async throws -> (told: [String], files: NextLaunch) {
        let files = await NextLaunch.read(
            dataFolder: folder.url,
            sealedFolder: folder.sealedFolder,
            firstWrite: try SealedFileName(kind: .kept, site: site, model: "nextrun")
        )
        let bus = EventBus<SealEvent>()
        let events = bus.subscribe()
        let store = folder.unlockedStore(events: bus)
        if let paired = await PairedSite.read(site: site, from: store),
            let client = try? HeadlessClient.onWallClock(paired: paired, store: store)
        {
            _ = await client.launch()
        }
        bus.finish()
        var told: [String] = []
        for await event in events where event.mustBeTold { told.append(event.description) }
        return (files.told + told, files)
    }
}
