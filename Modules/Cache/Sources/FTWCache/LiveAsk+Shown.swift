extension LiveAsk {
    /// What the model's screen shows now, read in one step so the answer, the availability and the failure agree.
    public var shown: ShownAnswer<Answer> {
        var shown = ShownAnswer(
            stored: stored,
            isAvailable: !isUnavailable,
            failure: isUnavailable ? nil : failure.map { String(describing: $0) }
        )
        shown.fromSealedFile = storedFromFile
        return shown
    }
}

extension AskingModel {
    /// What the model's screen shows now: the answer held, whether the box serves it, why the last ask failed.
    public var shown: ShownAnswer<Answer> { get async { await liveAsk.shown } }
}
