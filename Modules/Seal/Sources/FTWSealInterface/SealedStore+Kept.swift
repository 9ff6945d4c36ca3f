extension SealedStore {
    /// Seals a model's own file as a `.kept` ``SealedFileName``.
    public func keepFile(name: String, site: SiteID, contents: [UInt8]) async throws(SealError) {
        try await write(contents, to: SealedFileName(kind: .kept, site: site, model: name))
    }

    /// Reads a model's own file as a `.kept` ``SealedFileName``; an invalid name can name no file, so it reads nil.
    public func keptFile(name: String, site: SiteID) async -> [UInt8]? {
        guard let fileName = try? SealedFileName(kind: .kept, site: site, model: name) else { return nil }
        return await read(fileName)
    }
}
