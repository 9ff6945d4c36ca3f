import FTWBus
import FTWSeal
import FTWSealInterface
import Foundation

// ftw-seal-writer FOLDER GENERATION: writes WrittenVersion.names in turn into FOLDER through FileSealedStore, under
// the key in FOLDER/phone.key, until it is killed; after each write returns it prints "<index>" on a line. The kill
// test (SealKillTests) is its one user.
let arguments = CommandLine.arguments
guard arguments.count == 3, let generation = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: ftw-seal-writer FOLDER GENERATION\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[1], isDirectory: true)
let store = FileSealedStore(folder: folder, keys: FileKeyProvider(dataFolder: folder), events: EventBus())
var index = 0
while true {
    let version = WrittenVersion(generation: generation, index: index)
    do {
        try await store.write(version.contents, to: version.name)
    } catch {
        FileHandle.standardError.write(Data("ftw-seal-writer: \(error)\n".utf8))
        exit(1)
    }
    FileHandle.standardOutput.write(Data("\(index)\n".utf8))
    index += 1
}
