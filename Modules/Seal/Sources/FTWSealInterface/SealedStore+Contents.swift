extension SealedStore {
    /// The value sealed in `name`, or nil when the file is absent, did not open, or does not read back: such a file
    /// is dropped (``SealedStore/discard(_:holding:because:)``), so the model starts empty and asks again.
    @inlinable
    public func readContents<Value: SealedCodable>(
        _ name: SealedFileName,
        as type: Value.Type = Value.self
    ) async -> Value? {
        guard let bytes = await read(name) else { return nil }
        do {
            return try SealedContents.decode(bytes, name: name)
        } catch {
            await discard(name, holding: bytes, because: error)
            return nil
        }
    }

    /// Seals `value` in the binary layout as `name`.
    ///
    /// - Throws: As ``SealedStore/write(_:to:)``.
    public func writeContents(_ value: some SealedCodable, to name: SealedFileName) async throws(SealError) {
        try await write(SealedContents.encode(value), to: name)
    }

    /// A model's own file (`<name>-<site>`) read back as ``readContents(_:as:)`` does; nil as well when `name` is
    /// not a valid model name.
    @inlinable
    public func keptContents<Value: SealedCodable>(
        name: String,
        site: SiteID,
        as type: Value.Type = Value.self
    ) async -> Value? {
        guard let fileName = try? SealedFileName(kind: .kept, site: site, model: name) else { return nil }
        return await readContents(fileName, as: type)
    }

    /// Seals `value` in a model's own file, `<name>-<site>`, in the binary layout.
    ///
    /// - Throws: `SealError` with `.invalidName` when `name` is not a valid model name, or as ``write(_:to:)``.
    public func keepContents(_ value: some SealedCodable, name: String, site: SiteID) async throws(SealError) {
        try await writeContents(value, to: SealedFileName(kind: .kept, site: site, model: name))
    }
}
