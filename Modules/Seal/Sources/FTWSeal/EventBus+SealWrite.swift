package import FTWBus
package import FTWSealInterface

extension EventBus where Event == SealEvent {
    /// Runs a store's `write` of `name`, which returns the sealed file's size, and reports it: `.written` when it
    /// landed, `.writeFailed` (then rethrown) when it did not, so no store's failed write is ever silent. `write`
    /// runs on the calling store's actor.
    package func reportingWrite(
        isolation: isolated (any Actor)? = #isolation,
        of name: SealedFileName,
        _ write: () async throws(SealError) -> Int
    ) async throws(SealError) {
        do {
            publish(.written(file: name.fileName, bytes: try await write()))
        } catch {
            publish(.writeFailed(file: name.fileName, error: error))
            throw error
        }
    }
}
