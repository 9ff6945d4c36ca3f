extension StoredAnswer: CustomStringConvertible {
    /// The name it was asked under and when, not the answer itself (which may be a day of prices).
    public var description: String { "\(name), asked at \(askedAtMs)" }
}
