extension LiveAsk.Event: CustomStringConvertible {
    /// One line: what the ask did, under which name, and why it failed.
    public var description: String {
        switch self {
        case .restored(let stored): "restored \(stored)"
        case .answered(let stored): "answered \(stored)"
        case .failed(let name, let error): "failed \(name): \(error)"
        case .notKept(let error): "not kept: \(error)"
        }
    }
}
