/// HKDF with SHA-256 (RFC 5869): derives the rendezvous handle and, in Noise's two-output form, the session keys.
public enum HKDF {
    /// Extract-then-expand: `outputLength` bytes (at most 255 × 32) from `ikm` under `salt` and `info`.
    ///
    /// An empty salt is the same as 32 zero bytes, because HMAC pads its key with zeros.
    public static func sha256(ikm: [UInt8], salt: [UInt8], info: [UInt8], outputLength: Int) -> [UInt8] {
        precondition(outputLength >= 0 && outputLength <= 255 * 32, "HKDF-SHA256 yields at most 8160 bytes")
        let key = HMAC.sha256(key: salt, message: ikm)
        var output: [UInt8] = []
        var block: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < outputLength {
            block = HMAC.sha256(key: key, message: block + info + [counter])
            output += block
            counter &+= 1
        }
        return Array(output.prefix(outputLength))
    }
}
