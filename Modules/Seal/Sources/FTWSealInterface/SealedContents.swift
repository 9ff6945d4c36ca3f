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
/// ``SealedContentError/Code/olderFormat`` and never misread. A change to any model's layout bumps ``version``
/// and keeps the reading of every version a release wrote (the golden corpus in Tests/EndToEndTests/Fixtures
/// holds one of each); a file of a newer version is ``SealedContentError/Code/newerFormat``, which the store keeps
/// and never writes over.
public enum SealedContents {
    /// The first bytes of every model file's plaintext.
    public static let magic: [UInt8] = Array("FTWM".utf8)
    /// The layout version this build writes and reads.
    public static let version: UInt8 = 1

    /// The plaintext of `value`.
    @inlinable
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
    @inlinable
    public static func decode<Value: SealedCodable>(
        _ bytes: [UInt8],
        as type: Value.Type = Value.self,
        file: String
    ) throws(SealedContentError) -> Value {
        try decode(bytes, reader: BinaryReader(bytes, file: file, offset: magic.count + 1))
    }

    /// The value in `bytes`, the plaintext of the sealed file `name`, whose name is spelled out only in an error.
    ///
    /// - Throws: As ``decode(_:as:file:)``.
    @inlinable
    public static func decode<Value: SealedCodable>(
        _ bytes: [UInt8],
        as type: Value.Type = Value.self,
        name: SealedFileName
    ) throws(SealedContentError) -> Value {
        try decode(bytes, reader: BinaryReader(bytes, name: name, offset: magic.count + 1))
    }

    @inlinable
    static func decode<Value: SealedCodable>(
        _ bytes: [UInt8],
        reader: BinaryReader
    ) throws(SealedContentError) -> Value {
        guard bytes.count > magic.count, bytes[0] == magic[0], bytes[1] == magic[1], bytes[2] == magic[2],
            bytes[3] == magic[3], bytes[magic.count] == version
        else { throw refusal(bytes, file: reader.file) }
        var reader = reader
        let value = try Value(from: &reader)
        try reader.finish()
        return value
    }

    /// Why `bytes` are not this build's model file: cut short, an older build's JSON, another magic or version.
    @usableFromInline
    static func refusal(_ bytes: [UInt8], file: String) -> SealedContentError {
        if bytes.count <= magic.count, magic.starts(with: bytes) {
            return SealedContentError(.truncated, file: file, "it ends after \(bytes.count) bytes, before its version")
        }
        guard bytes.starts(with: magic) else {
            if bytes.first == UInt8(ascii: "{") {
                return SealedContentError(
                    .olderFormat,
                    file: file,
                    "it holds an older build's JSON, not format \(version)"
                )
            }
            return SealedContentError(.badMagic, file: file, "it does not start with the model files' magic")
        }
        guard bytes[magic.count] < version else {
            return .newer(file: file, version: bytes[magic.count], current: version)
        }
        return SealedContentError(
            .unknownVersion,
            file: file,
            "format version \(bytes[magic.count]), which no build wrote; this build reads \(version)"
        )
    }
}
