/// The name of one sealed file: its kind, its site and, for a kept file, its model.
///
/// Built only from validated parts, so a file name never holds a `/`, a dot or anything a shell would mind, and
/// every name parses back to the same value (``init(fileName:)``).
import FTWBus

public struct SealedFileName: Sendable, Hashable, CustomStringConvertible {
    /// What the file holds.
    public let kind: SealedFileKind
    /// Which home the file belongs to.
    public let site: SiteID
    /// The model that keeps the file, for ``SealedFileKind/kept`` only; nil for the built-in kinds.
    public let model: String?

    /// The longest model name a kept file may have.
    public static let modelNameLimit = 64

    /// Makes a name, checking that a kept file has a valid model name and a built-in kind has none.
    ///
    /// - Throws: `SealError` with `.invalidName` when `model` is missing for `.kept`, present for another kind,
    ///   not 1 to 64 characters of lowercase `[a-z0-9-]` starting with a letter or digit, or a built-in kind's name.
    public init(kind: SealedFileKind, site: SiteID, model: String? = nil) throws(SealError) {
        switch (kind, model) {
        case (.kept, .some(let model)):
            guard Self.isValidModel(model) else {
                throw SealError(.invalidName, "\(model.debugDescription) is not a valid kept file name")
            }
        case (.kept, .none):
            throw SealError(.invalidName, "a kept file needs its model's name")
        case (_, .some(let model)):
            throw SealError(.invalidName, "a \(kind) file has no model name, got \(model.debugDescription)")
        case (_, .none):
            break
        }
        self.init(checked: kind, site: site, model: model)
    }

    /// Parses a name as it appears on disk, or nil when it is no sealed file's name.
    public init?(fileName: String) {
        let bytes = Array(fileName.utf8)
        let dash = bytes.count - SiteID.length - 1
        guard dash > 0, bytes[dash] == UInt8(ascii: "-"),
            let site = SiteID(rawValue: String(decoding: bytes[(dash + 1)...], as: UTF8.self))
        else { return nil }
        let prefix = String(decoding: bytes[..<dash], as: UTF8.self)
        if let kind = SealedFileKind(rawValue: prefix), kind != .kept {
            self.init(checked: kind, site: site)
        } else if Self.isValidModel(prefix) {
            self.init(checked: .kept, site: site, model: prefix)
        } else {
            return nil
        }
    }

    /// The last readings of `site`.
    public static func snapshot(_ site: SiteID) -> SealedFileName { SealedFileName(checked: .snapshot, site: site) }
    /// The models of `site`.
    public static func home(_ site: SiteID) -> SealedFileName { SealedFileName(checked: .home, site: site) }
    /// The live rings of `site`.
    public static func ring(_ site: SiteID) -> SealedFileName { SealedFileName(checked: .ring, site: site) }
    /// The history tiles of `site`.
    public static func tiles(_ site: SiteID) -> SealedFileName { SealedFileName(checked: .tiles, site: site) }

    /// The name on disk: `<kind>-<site>`, or `<model>-<site>` for a kept file.
    public var fileName: String { "\(model ?? kind.rawValue)-\(site.rawValue)" }

    /// The name on disk.
    public var description: String { fileName }

    private init(checked kind: SealedFileKind, site: SiteID, model: String? = nil) {
        self.kind = kind
        self.site = site
        self.model = model
    }

    /// Whether `model` may name a kept file: a built-in kind's name would make `<model>-<site>` ambiguous.
    private static func isValidModel(_ model: String) -> Bool {
        let utf8 = model.utf8
        guard let first = utf8.first, utf8.count <= modelNameLimit, first != UInt8(ascii: "-") else { return false }
        let allowed = utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-")
        }
        return allowed && SealedFileKind(rawValue: model) == nil
    }
}
