extension HistoryEvent: CustomStringConvertible {
    /// One line: what changed or failed, with the window in short.
    public var description: String {
        switch self {
        case .changed(let window): "changed: \(window)"
        case .tileRefused(let error): "tile refused: \(error)"
        case .fileRefused(let error): "file refused: \(error)"
        case .failed(let name, let error): "failed \(name): \(error)"
        case .notKept(let error): "not kept: \(error)"
        }
    }
}
