extension FieldValue {
    /// A history resolution, `5m` or `1h`.
    func resolution() throws(ProtocolError) -> HistoryResolution {
        let text = try text()
        guard let resolution = HistoryResolution(rawValue: text) else {
            throw ProtocolError(.badField, "\(path): unknown resolution \"\(text)\"", field: path)
        }
        return resolution
    }
}
