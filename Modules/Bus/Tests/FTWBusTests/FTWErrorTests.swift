import FTWBus
import Testing

/// An error type as a module writes one: its codes and its storage, nothing else.
private struct ToyError: FTWError {
    struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        static let truncated = Code(name: "truncated")
        static let malformed = Code(name: "malformed")
        var description: String { name }
    }

    var code: Code
    var message: String
    var cause: (any Error)?
}

/// A lower layer's failure.
private struct Beneath: Error, CustomStringConvertible {
    var description: String { "disk full" }
}

@Suite("The one error shape's line, debug text, equality and hash")
struct FTWErrorTests {
    private let error = ToyError(
        code: .truncated,
        message: "ring-0123456789abcdef ends at byte 12 of 40",
        cause: Beneath()
    )

    @Test("the line is the code and the message, on one line, and errorDescription says it too")
    func line() {
        #expect(error.description == "truncated: ring-0123456789abcdef ends at byte 12 of 40")
        #expect("\(error)" == error.description)
        #expect(error.errorDescription == error.description)
    }

    @Test("the debug text names the type, the code, the message and the cause")
    func debugText() {
        #expect(
            String(reflecting: error)
                == "ToyError.truncated: ring-0123456789abcdef ends at byte 12 of 40 (cause: disk full)"
        )
        var bare = error
        bare.cause = nil
        #expect(String(reflecting: bare) == "ToyError.truncated: ring-0123456789abcdef ends at byte 12 of 40")
    }

    @Test("equality and the hash take the code and the message, never the cause")
    func equality() {
        var same = error
        same.cause = nil
        #expect(error == same)
        #expect(error.hashValue == same.hashValue)
        var other = error
        other.code = .malformed
        #expect(error != other)
        var reworded = error
        reworded.message = "ring-0123456789abcdef ends at byte 13 of 40"
        #expect(error != reworded)
        #expect(Set([error, same, other]).count == 2)
    }

    @Test("a service's second run is an error of the same shape: a code to decide by, its sentence as the line")
    func aSecondRunIsSaidInTheShape() {
        let error = ServiceError.alreadyRunning("history")
        let line = "history was asked to run a second time: a service runs once, and the first run goes on"
        #expect(error.code == .alreadyRunning)
        #expect("\(error)" == line)
        #expect(String(reflecting: error) == "ServiceError.alreadyRunning: \(line)")
        #expect(error == .alreadyRunning("history"))
        #expect(error != .alreadyRunning("session"))
        let shaped: any FTWError = error
        #expect(shaped.cause == nil)
    }
}
