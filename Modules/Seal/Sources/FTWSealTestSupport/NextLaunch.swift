import FTWBus
import FTWSeal
public import FTWSealInterface
public import Foundation

/// What the next launch finds in a data folder a test stopped part way (an ``EraseKill``): every sealed file opened
/// as a launch opens it, every line its store had to say, and whether the phone's key was there before the launch
/// could make a new one.
public struct NextLaunch: Sendable {
    /// The contents of every sealed file that opened, by file name.
    public var opened: [String: [UInt8]] = [:]
    /// The sealed files that did not open.
    public var unopened: [String] = []
    /// What the store had to tell a person (`SealEvent.mustBeTold`), one line each: nothing, for a folder read
    /// without an error.
    public var told: [String] = []
    /// Whether the phone's key was in the folder.
    public var keyExisted = false

    /// Every sealed file's name the launch found.
    public var files: [String] { (Array(opened.keys) + unopened).sorted() }

    /// Reads the data folder at `dataFolder` (its sealed files in `sealedFolder`) as a launch does, then seals one
    /// file, `firstWrite`, as the launch's first write: it must not be refused for a key or a mark left behind.
    public static func read(
        dataFolder: URL,
        sealedFolder: URL,
        firstWrite: SealedFileName
    ) async -> NextLaunch {
        var launch = NextLaunch()
        launch.keyExisted = FileManager.default.fileExists(
            atPath: dataFolder.appending(component: FileKeyProvider.fileName).path
        )
        let bus = EventBus<SealEvent>()
        let events = bus.subscribe()
        let store = FileSealedStore(
            folder: sealedFolder,
            keys: FileKeyProvider(dataFolder: dataFolder, sealedFolder: sealedFolder, events: bus),
            events: bus
        )
        for file in await store.files() {
            if let contents = await store.read(file.name) {
                launch.opened[file.name.fileName] = contents
            } else {
                launch.unopened.append(file.name.fileName)
            }
        }
        try? await store.write(Array("after".utf8), to: firstWrite)
        bus.finish()
        for await event in events where event.mustBeTold { launch.told.append(event.description) }
        return launch
    }
}
