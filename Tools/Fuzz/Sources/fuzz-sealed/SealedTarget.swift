import FTWFuzzSupport
import FTWSeal
import FTWSealInterface

/// libFuzzer's entry: a mode byte, then a file's bytes or a file name.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSealed(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    switch input.choice(below: 3) {
    case 0: SealedTarget.open(&input)
    case 1: SealedTarget.reseal(&input)
    default: SealedTarget.parseName(input.rest())
    }
    return 0
}

/// The sealed-file opener on what a disk may hold after a crash, bit rot or meddling, and the name parser on what a
/// folder listing may hold.
///
/// A file opens only when it is whole, under its own name and key; then its size is the contents plus the format's
/// overhead. A name parses only when it prints back the same.
enum SealedTarget {
    static let key = [UInt8](repeating: 0x5e, count: 32)
    static let site = SiteID(rawValue: "0123456789abcdef")
    static let names: [SealedFileName] = {
        guard let site, let kept = try? SealedFileName(kind: .kept, site: site, model: "prefs") else { return [] }
        return [.snapshot(site), .home(site), .ring(site), .tiles(site), kept]
    }()

    /// Any bytes, opened as one of the names (the file's own, or another).
    static func open(_ input: inout FuzzInput) {
        let name = names[input.choice(below: names.count)]
        let file = input.rest()
        guard let contents = try? SealedFileFormat.open(file, as: name, key: key) else { return }
        FuzzCheck.require(file.count == contents.count + SealedFileFormat.overhead, "a file opened at the wrong size")
    }

    /// Contents sealed as one name, then changed in one byte or cut short: only the untouched file under its own
    /// name opens, and to exactly what was sealed.
    static func reseal(_ input: inout FuzzInput) {
        let name = names[input.choice(below: names.count)]
        let other = names[input.choice(below: names.count)]
        let change = input.uint64()
        let contents = input.rest()
        guard var file = try? SealedFileFormat.seal(contents, as: name, key: key) else {
            FuzzCheck.fail("sealing \(contents.count) bytes failed")
        }
        let opened = try? SealedFileFormat.open(file, as: other, key: key)
        FuzzCheck.require((opened == contents) == (other == name), "a file opened under another name, or not its own")
        let at = Int((change >> 8) % UInt64(file.count + 1))
        if at == file.count {
            file.removeLast(Int(change & 0xff) % file.count + 1)
        } else {
            file[at] ^= UInt8(change & 0xff) | 1
        }
        FuzzCheck.require((try? SealedFileFormat.open(file, as: name, key: key)) == nil, "a changed file opened")
    }

    static func parseName(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let name = SealedFileName(fileName: text) else { return }
        FuzzCheck.require(name.fileName == text, "\(text.debugDescription) parses as \(name.fileName)")
        FuzzCheck.require(SealedFileName(fileName: name.fileName) == name, "a name does not parse back to itself")
    }
}
