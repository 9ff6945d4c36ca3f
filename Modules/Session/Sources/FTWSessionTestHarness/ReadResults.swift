import FTWBus
public import FTWSessionInterface

/// Every read's result, keyed by what was asked, in the order they settled.
public actor ReadResults {
    /// Makes an empty record.
    public init() {}

    /// Every settled read, in the order they settled.
    public private(set) var settled: [(request: ReadRequest, result: Result<ReadAnswer, SessionError>)] = []

    /// Keeps how `request` settled.
    public func add(_ request: ReadRequest, _ result: Result<ReadAnswer, SessionError>) {
        settled.append((request, result))
    }

    /// The results of `request`, in order.
    public func results(of request: ReadRequest) -> [Result<ReadAnswer, SessionError>] {
        settled.filter { $0.request == request }.map(\.result)
    }

    /// The error codes of `request`'s failures.
    public func errorCodes(of request: ReadRequest) -> [SessionError.Code] {
        results(of: request).compactMap { result in
            if case .failure(let error) = result { return error.code }
            return nil
        }
    }
}
