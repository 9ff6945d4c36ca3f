public import FTWSessionInterface

/// The box's status document, `GET /api/status`: the few fields the app shows, and the whole answer as the box
/// sent it.
public struct SiteStatus: SiteReading, Hashable {
    /// The box's status, read.
    public static let kind = SiteReadKind.status

    /// The box's software version (`version`), when it says.
    public var version: String?
    /// The site's operating mode (`mode`), when it says.
    public var mode: String?
    /// The whole answer, as the box sent it.
    public var json: String

    /// Makes a status.
    public init(version: String?, mode: String?, json: String) {
        self.version = version
        self.mode = mode
        self.json = json
    }

    /// Reads the box's answer; a field the app reads that holds another kind reads as absent.
    ///
    /// - Throws: ``SiteError`` `.unexpectedStatus`, or `.undecodable` when the body is not a JSON object.
    public init(response: APIResponse) throws(SiteError) {
        let object = try JSONValue.object(of: response, path: Self.kind.path)
        version = try? object.text("version", in: Self.kind.path)
        mode = try? object.text("mode", in: Self.kind.path)
        json = String(decoding: response.body, as: UTF8.self)
    }
}
