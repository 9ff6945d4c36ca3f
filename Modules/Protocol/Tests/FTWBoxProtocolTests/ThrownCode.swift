import FTWBoxProtocol

/// The code of the ``ProtocolError`` that `body` throws, or nil when it succeeds (or throws something else): one
/// line per malformed input.
func thrownCode<Value>(_ body: () throws -> Value) -> ProtocolError.Code? {
    do {
        _ = try body()
        return nil
    } catch {
        return (error as? ProtocolError)?.code
    }
}
