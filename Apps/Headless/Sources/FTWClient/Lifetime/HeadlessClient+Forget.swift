public import FTWSealInterface

extension HeadlessClient {
    /// Forgets the client's home (``ForgetScope/site``) or the whole phone (``ForgetScope/phone``): the session closes
    /// its connection with a close frame (1000) and every service stops first, so nothing more is asked of the box
    /// or written; then the files are erased, the pairing record last, and for the phone the key after every file.
    ///
    /// Nothing is sealed on the way (what was held is about to be erased). A process killed at any step leaves a
    /// folder the next launch reads without an error: the home still paired with some of its cache gone, or
    /// forgotten; never a file without the key that opens it. The client is closed afterwards, as after
    /// ``close()``; a client closed already is forgotten all the same.
    ///
    /// ```swift
    /// try await client.forget()  // this home: the box saw 1000 before any file went
    /// try await client.forget(.phone)  // every home, and the phone's key last
    /// ```
    ///
    /// - Parameter scope: The client's site (the default), or every file and the phone's key.
    /// - Throws: ``/FTWSealInterface/SealError`` with `.io` (or `.keyUnavailable`, for the key) when something could
    ///   not be removed: what is left still opens, and a second forget erases the rest.
    public func forget(_ scope: ForgetScope = .site) async throws(SealError) {
        if await lifetime.claimClose() {
            await session.close()
            lifetime.closed()
        }
        await lifetime.waitUntilNoRun()
        switch scope {
        case .site: try await PairedSite.forget(site: paired.site, in: store)
        case .phone: try await store.eraseAll()
        }
    }
}
