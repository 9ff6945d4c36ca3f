extension NoiseHandshake {
    /// Writes message 1 (`e, es, s, ss`): the app's ephemeral key, its encrypted static key and the payload.
    ///
    /// - Parameter payload: the 16-byte pairing code, the 5-byte spoken box code, or empty for a known device.
    /// - Returns: `96 + payload.count` bytes.
    /// - Throws: `NoiseError` with `.wrongState` unless this is a fresh initiator, `.weakKey` when the box's
    ///   static key is a low-order point.
    public mutating func writeMessage1(payload: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard case .writeMessage1(let remoteStatic) = step else { throw outOfTurn("writeMessage1") }
        var symmetric = self.symmetric
        symmetric.mixHash(localEphemeral.publicKey)
        symmetric.mixKey(try localEphemeral.agree(with: remoteStatic))
        let encryptedStatic = try symmetric.encryptAndHash(localStatic.publicKey)
        symmetric.mixKey(try localStatic.agree(with: remoteStatic))
        let encryptedPayload = try symmetric.encryptAndHash(payload)
        self.symmetric = symmetric
        step = .readMessage2
        return localEphemeral.publicKey + encryptedStatic + encryptedPayload
    }

    /// Reads a candidate message 2 (`e, ee, se`) and, if it is the box's reply to this handshake, finishes it.
    ///
    /// The relay hands every phone in the room every reply, so a failure here changes nothing: the same handshake
    /// can try the next candidate.
    ///
    /// - Parameter bytes: at least 48 bytes (the production box sends exactly 48; the vectors carry a payload).
    /// - Returns: the box's payload and the session.
    /// - Throws: `NoiseError` with `.malformed` under 48 bytes, `.authenticationFailed` for a reply to someone
    ///   else, `.weakKey` for a low-order ephemeral key, `.wrongState` unless message 1 was written.
    public mutating func readMessage2(
        _ bytes: [UInt8]
    ) throws(NoiseError) -> (payload: [UInt8], session: NoiseSession) {
        guard case .readMessage2 = step else { throw outOfTurn("readMessage2") }
        var (symmetric, remoteEphemeral) = try receiveEphemeral(bytes, minimumSize: Self.minimumMessage2Size)
        symmetric.mixKey(try localEphemeral.agree(with: remoteEphemeral))
        symmetric.mixKey(try localStatic.agree(with: remoteEphemeral))
        let payload = try symmetric.decryptAndHash(Array(bytes.dropFirst(32)))
        return (payload, finish(symmetric, asInitiator: true))
    }
}
