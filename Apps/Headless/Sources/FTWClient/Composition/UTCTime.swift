/// A wall-clock instant as `HH:MM:SS UTC`, for the one-line texts a person reads; UTC so the text is the same on
/// every machine.
struct UTCTime: CustomStringConvertible {
    /// Unix ms.
    let ms: Int64

    /// `HH:MM:SS UTC`.
    var description: String {
        let secondOfDay = Int((ms / 1000) % 86_400 + 86_400) % 86_400
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(twoDigits(secondOfDay / 3600)):\(twoDigits(secondOfDay / 60 % 60)):\(twoDigits(secondOfDay % 60)) UTC"
    }
}
