extension AskRecord: CustomStringConvertible {
    /// One line of the asks log: the request's type and id, when, in which stay, and what it asked.
    public var description: String {
        "\(type) #\(id) at \(atMs) (stay \(stay))\(detail.isEmpty ? "" : ": \(detail)")"
    }
}
