/// The plaintext of every model's sealed file (prices, plan, chargers, prefs, status, home, snapshot): a magic and a
/// format version, then the value's fields (``SealedCodable``).
///
/// ```
/// 4 bytes  magic "FTWM"
/// u8       format version (1)
/// …        the value's fields: varints, zigzag varints, length-prefixed UTF-8, flags (the Seal README)
/// ```
///
/// Files an older build wrote are JSON and start with `{`: they are told apart by the magic, refused as
/// ``SealedContentError/Code/olderFormat`` and never misread. A change to any model's layout bumps ``version``;
/// a file of another version is refused the same way, and its model asks again.
public enum SealedContents {
    /// The first bytes of every model file's plaintext.
    public static let magic: [UInt8] = Array("FTWM".utf8)
    /// The layout version this build writes and reads.
    public static let version: UInt8 = 1

    /// The plaintext of `value`.
    public static func encode(_ value: some SealedCodable) -> [UInt8] {
        var writer = BinaryWriter(reservingCapacity: 512)
        writer.raw(magic)
        writer.byte(version)
        value.encode(into: &writer)
        return writer.bytes
    }

    /// The value in `bytes`, the plaintext of `file`.
    ///
    /// - Throws: ``SealedContentError``: `.olderFormat` for an older build's JSON, `.badMagic`, `.unknownVersion`,
    ///   or what the value's own reading throws; bytes left over are `.malformed`.
    public static func decode<Value: SealedCodable>(
        _ bytes: [UInt8],
        as type: Value.Type = Value.self,
        file: String
    ) throws(SealedContentError) -> Value {
        guard bytes.count > magic.count, bytes[0] == magic[0], bytes[1] == magic[1], bytes[2] == magic[2],
            bytes[3] == magic[3]
        else {
            if magic.starts(with: bytes) {
                throw SealedContentError(
                    .truncated,
                    file: file,
                    "it ends after \(bytes.count) bytes, before its version"
                )
            }
            if bytes.first == UInt8(ascii: "{") {
                throw SealedContentError(
                    .olderFormat,
                    file: file,
                    "it holds an older build's JSON, not format \(version)"
                )
            }
            throw SealedContentError(.badMagic, file: file, "it does not start with the model files' magic")
        }
        let found = bytes[magic.count]
        guard found == version else {
            throw SealedContentError(
                .unknownVersion,
                file: file,
                "format version \(found), this build reads \(version)"
            )
        }
        var reader = BinaryReader(bytes, file: file, offset: magic.count + 1)
        let value = try Value(from: &reader)
        try reader.finish()
        return value
    }
}
