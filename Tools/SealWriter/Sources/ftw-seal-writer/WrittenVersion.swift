public import FTWSealInterface
import Foundation

/// One version of one file that `ftw-seal-writer` writes: which child wrote it (`generation`), its place in that
/// child's sequence of writes (`index`), and so its exact contents.
///
/// The kill test rebuilds every version from these two numbers, so any byte that is not exactly a version ever
/// written, torn or mixed, shows.
public struct WrittenVersion: Sendable, Hashable, CustomStringConvertible {
    /// The files each child writes, in turn: one of each kind the app keeps, and a model's own file.
    public static let names: [SealedFileName] = {
        guard let site = SiteID(rawValue: "5eed5eed5eed5eed"),
            let prefs = try? SealedFileName(kind: .kept, site: site, model: "prefs")
        else { preconditionFailure("the writer's file names are valid") }
        return [.ring(site), .tiles(site), .snapshot(site), prefs]
    }()

    /// Which child process wrote it (the test numbers them from 0).
    public var generation: Int
    /// How many writes that child finished before starting this one.
    public var index: Int

    /// Makes a version.
    public init(generation: Int, index: Int) {
        self.generation = generation
        self.index = index
    }

    /// The file this write goes to: the names in turn.
    public var name: SealedFileName { Self.names[index % Self.names.count] }

    /// The contents: a header naming the version, then up to 24 000 bytes of `A` (even writes) or `B` (odd ones),
    /// so that sizes vary across pages and the old and new versions of a file differ in every byte.
    public var contents: [UInt8] {
        let header = Array("ftw-seal-writer g=\(generation) i=\(index) \(name.fileName)\n".utf8)
        let fill = UInt8(ascii: index.isMultiple(of: 2) ? "A" : "B")
        return header + [UInt8](repeating: fill, count: (index * 7_919 + generation * 104_729) % 24_000)
    }

    /// The version whose contents are exactly `bytes`, or nil for anything that was never written.
    public init?(contents bytes: [UInt8]) {
        guard let newline = bytes.firstIndex(of: 10) else { return nil }
        let words = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
        guard words.count == 4, words[0] == "ftw-seal-writer", words[1].hasPrefix("g="), words[2].hasPrefix("i="),
            let generation = Int(words[1].dropFirst(2)), let index = Int(words[2].dropFirst(2)),
            generation >= 0, index >= 0
        else { return nil }
        self.init(generation: generation, index: index)
        guard contents == bytes else { return nil }
    }

    /// `g<generation>#<index>`, for failure messages.
    public var description: String { "g\(generation)#\(index)" }
}
