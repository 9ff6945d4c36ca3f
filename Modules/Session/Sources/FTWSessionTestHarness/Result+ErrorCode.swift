import FTWBus
public import FTWSessionInterface

extension Result where Failure == SessionError {
    /// The error's code, or nil for a success.
    public var errorCode: SessionError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}
