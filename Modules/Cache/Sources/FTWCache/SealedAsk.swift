import FTWSealInterface

/// What a model's sealed file holds: the answer, and the verdict that the box does not carry the read, with the
/// box's build (`hello_ok.box.build`) it was given under, so a relaunch does not ask a box that cannot answer and
/// a box update (which may add the route) is asked once more.
///
/// Sealed in the binary layout (``SealedContents``); a file an older build wrote as JSON is dropped and asked again.
struct SealedAsk<Answer: Sendable & SealedCodable & Equatable>: Sendable, Equatable {
    /// The answer held, if any.
    var stored: StoredAnswer<Answer>?
    /// The box build that answered `E_UNKNOWN_OP` to this read; nil when no box refused it.
    var lackingOnBuild: String?
}
