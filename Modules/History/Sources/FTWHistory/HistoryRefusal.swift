import FTWSealInterface

/// The box build that refused `hist.query` outright (`E_UNKNOWN_OP`), sealed in the model's own file
/// (`history-<site>`) so that a relaunch asks nothing of a build that cannot answer and a box update asks once more
/// (cache.md §1: a refused read is remembered with the build, history included). A file of its own, beside the
/// tiles, so that the tiles file keeps its format.
struct HistoryRefusal: SealedCodable, Equatable {
    /// The kept file's model name.
    static let fileModel = "history"

    /// The build that refused; nil once a box answered.
    var lackingOnBuild: String?

    init(lackingOnBuild: String?) {
        self.lackingOnBuild = lackingOnBuild
    }

    func encode(into writer: inout BinaryWriter) {
        writer.optional(lackingOnBuild) { $0.text($1) }
    }

    init(from reader: inout BinaryReader) throws(SealedContentError) {
        lackingOnBuild = try reader.optional { reader throws(SealedContentError) in try reader.text(atMost: 1024) }
    }
}
