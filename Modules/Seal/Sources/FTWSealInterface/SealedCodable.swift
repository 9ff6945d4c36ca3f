/// A value a model keeps in its sealed file, written and read field by field in the binary layout
/// (``SealedContents``) instead of through `Codable`, which costs a cold start far more than the bytes are worth.
public protocol SealedCodable {
    /// Writes the value's fields.
    func encode(into writer: inout BinaryWriter)

    /// Reads the value's fields back.
    ///
    /// - Throws: ``SealedContentError`` when the bytes end early, a count or length passes its limit, or a field
    ///   is out of its range; never traps on them.
    init(from reader: inout BinaryReader) throws(SealedContentError)
}
