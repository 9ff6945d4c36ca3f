import FTWBus
import Testing

/// The codes of the toy errors: an open set of named values, as a module's codes are.
private struct ToyCode: Sendable, Hashable, CustomStringConvertible {
    private let name: String
    static let truncated = ToyCode(name: "truncated")
    static let malformed = ToyCode(name: "malformed")
    var description: String { name }
}

/// An error type that holds its own storage: its codes and its code, message and cause, nothing else.
private struct ToyError: FTWError {
    var code: ToyCode
    var message: String
    var cause: (any Error)?
}

/// An error type as a module writes one on the shared storage: its codes, its fields and the initialiser that takes
/// them, nothing else.
private struct StoredToyError: FTWStoredError {
    // Named: the code type is not inferred from `fields` alone, and a module's error nests its own `Code` instead.
    typealias Code = ToyCode

    var fields: FTWErrorFields<Code>

    init(fields: FTWErrorFields<Code>) { self.fields = fields }
}

/// An error on the shared storage whose message is already a person's sentence, so it prints the message alone.
private struct SentenceError: FTWStoredError {
    struct Code: Sendable, Hashable, CustomStringConvertible {
        static let refused = Code()
        var description: String { "refused" }
    }

    var fields: FTWErrorFields<Code>

    init(fields: FTWErrorFields<Code>) { self.fields = fields }

    var description: String { message }
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

    @Test("an error on the shared storage is made as every error is, and reads back what it was made of")
    func storedErrorInitialiser() {
        let bare = StoredToyError(.truncated, "ring-0123456789abcdef ends at byte 12 of 40")
        #expect(bare.code == .truncated)
        #expect(bare.message == "ring-0123456789abcdef ends at byte 12 of 40")
        #expect(bare.cause == nil)
        let caused = StoredToyError(.malformed, "an overlong varint at byte 3", cause: Beneath())
        #expect(caused.fields.code == .malformed)
        #expect(caused.fields.message == "an overlong varint at byte 3")
        #expect(caused.cause is Beneath)
    }

    @Test("each of its code, message and cause is written through to the shared storage")
    func storedErrorSetters() {
        var error = StoredToyError(.truncated, "ring-0123456789abcdef ends at byte 12 of 40", cause: Beneath())
        error.code = .malformed
        error.message = "an overlong varint at byte 3"
        error.cause = nil
        #expect(error.fields.code == .malformed)
        #expect(error.fields.message == "an overlong varint at byte 3")
        #expect(error.fields.cause == nil)
        #expect(error.code == .malformed)
        #expect(error.message == "an overlong varint at byte 3")
        #expect(error.cause == nil)
        error.cause = Beneath()
        #expect(error.fields.cause is Beneath)
    }

    @Test("an error on the shared storage prints, compares and hashes as the shape says, never by its cause")
    func storedErrorLineAndEquality() {
        let error = StoredToyError(.truncated, "ring-0123456789abcdef ends at byte 12 of 40", cause: Beneath())
        #expect("\(error)" == "truncated: ring-0123456789abcdef ends at byte 12 of 40")
        #expect(
            String(reflecting: error)
                == "StoredToyError.truncated: ring-0123456789abcdef ends at byte 12 of 40 (cause: disk full)"
        )
        let uncaused = StoredToyError(.truncated, "ring-0123456789abcdef ends at byte 12 of 40")
        #expect(error == uncaused)
        #expect(error.hashValue == uncaused.hashValue)
        #expect(error != StoredToyError(.malformed, "ring-0123456789abcdef ends at byte 12 of 40"))
        #expect(error != StoredToyError(.truncated, "ring-0123456789abcdef ends at byte 13 of 40"))
    }

    @Test("a description the type declares itself is its line, however the error is held")
    func ownDescriptionWins() {
        let error = SentenceError(.refused, "the box refused this phone: pair it again")
        let line = "the box refused this phone: pair it again"
        #expect(error.description == line)
        #expect("\(error)" == line)
        let shaped: any FTWError = error
        #expect(shaped.description == line)
        #expect(shaped.errorDescription == line)
        #expect(String(reflecting: error) == "SentenceError.refused: \(line)")
    }
}
