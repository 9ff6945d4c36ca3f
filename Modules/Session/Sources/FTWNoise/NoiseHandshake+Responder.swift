extension NoiseHandshake {
    /// Reads message 1 (`e, es, s, ss`) from a phone.
    ///
    /// The box treats any unclaimed binary message of 96 bytes or more as a possible message 1, so a failure here
    /// changes nothing and the same responder can try the next one.
    ///
    /// - Returns: the payload (pairing code, spoken code or empty) and the app's static key, which is the device
    ///   identity the box authorises.
    /// - Throws: `NoiseError` with `.malformed` under 96 bytes, `.authenticationFailed` when the message was not
    ///   made for this box's key and prologue, `.weakKey` for a low-order key, `.wrongState` out of turn.
    public mutating func readMessage1(
        _ bytes: [UInt8]
    ) throws(NoiseError) -> (payload: [UInt8], remoteStaticPublicKey: [UInt8]) {
        guard case .readMessage1 = step else { throw outOfTurn("readMessage1") }
        var (symmetric, remoteEphemeral) = try receiveEphemeral(bytes, minimumSize: Self.message1Overhead)
        symmetric.mixKey(try localStatic.agree(with: remoteEphemeral))
        let remoteStatic = try symmetric.decryptAndHash(Array(bytes[32..<80]))
        symmetric.mixKey(try localStatic.agree(with: remoteStatic))
        let payload = try symmetric.decryptAndHash(Array(bytes.dropFirst(80)))
        self.symmetric = symmetric
        step = .writeMessage2(remoteStatic: remoteStatic, remoteEphemeral: remoteEphemeral)
        return (payload, remoteStatic)
    }

    /// Writes message 2 (`e, ee, se`) and finishes the handshake.
    ///
    /// - Parameter payload: empty in production (48 bytes in all); the vectors send `boot=ok`.
    /// - Returns: the message and the session.
    /// - Throws: `NoiseError` with `.wrongState` unless message 1 was read.
    public mutating func writeMessage2(
        payload: [UInt8]
    ) throws(NoiseError) -> (message: [UInt8], session: NoiseSession) {
        guard case .writeMessage2(let remoteStatic, let remoteEphemeral) = step else {
            throw outOfTurn("writeMessage2")
        }
        var symmetric = self.symmetric
        symmetric.mixHash(localEphemeral.publicKey)
        symmetric.mixKey(try localEphemeral.agree(with: remoteEphemeral))
        symmetric.mixKey(try localEphemeral.agree(with: remoteStatic))
        let encryptedPayload = try symmetric.encryptAndHash(payload)
        return (localEphemeral.publicKey + encryptedPayload, finish(symmetric, asInitiator: false))
    }
}
