// The errors an app catches, named through `import FTWClient` alone: each has the one shape (`FTWError`), so a program
// decides by the code, a person reads one line that names the thing and what is wrong, and the cause stays aside.
import FTWClient
import Testing

@Suite("Every error the client hands out has the one shape")
struct ErrorShapeTests {
    /// The client's error types with a code: a type that left the shape would not compile here.
    static let handedOut: [any FTWError.Type] = [SessionError.self, SealError.self, EnrolmentError.self]

    @Test("a link that is not an enrolment link is one line naming the text and what it must start with")
    func badLink() {
        let text = "https://example.com/pair"
        #expect(throws: EnrolmentError.self) { try EnrolmentURL(parsing: text) }
        do {
            _ = try EnrolmentURL(parsing: text)
        } catch {
            #expect(error.code == .notAnEnrolmentLink)
            expectOneLine(error, naming: [text, "is not an enrolment link"])
        }
    }

    @Test("a relay address that is not one is one line naming the address and the form it must take")
    func badRelay() {
        do {
            _ = try RelayAddress(parsing: "http://relay.example")
            Issue.record("an http address was taken as a relay")
        } catch {
            #expect(error.code == .relay)
            expectOneLine(error, naming: ["http://relay.example", "is not a relay address", "wss://HOST"])
        }
    }

    @Test("the cause is kept for a program: not in the line, not in equality, in the debug text with the type and code")
    func causeAside() {
        let beneath = SealError(.io, "tiles-0123456789abcdef: no space left on the device")
        let error = SessionError(.timeout, "the box was silent for 10 s", cause: beneath)
        let same = SessionError(.timeout, "the box was silent for 10 s")
        #expect(error == same)
        #expect(error.hashValue == same.hashValue)
        #expect(error != SessionError(.timeout, "the box was silent for 20 s"))
        #expect(error.description == "the box was silent for 10 s")
        #expect(error.errorDescription == error.description)
        #expect(
            String(reflecting: error)
                == "SessionError.timeout: the box was silent for 10 s (cause: SealError.io: "
                + "tiles-0123456789abcdef: no space left on the device)"
        )
        #expect((error.cause as? SealError) == beneath)
    }

    @Test("every handed-out type keeps its code, its message and its cause")
    func everyTypeHasTheShape() {
        let errors: [any FTWError] = [
            SessionError(.boxOffline, "the box is not in the relay's room", cause: beneath),
            SealError(.folderInUse, "/data is held by process 42", cause: beneath),
            EnrolmentError(.relayNotTrusted, "relay.example's certificate did not verify", cause: beneath),
        ]
        #expect(errors.map { "\(type(of: $0))" } == Self.handedOut.map { "\($0)" })
        for error in errors {
            #expect(error.cause is Beneath)
            expectOneLine(error, naming: [error.message])
        }
    }

    private let beneath = Beneath()
}

/// A lower layer's failure.
private struct Beneath: Error {}

/// The error's line is one line, not empty, holds each of `parts`, and is what `errorDescription` says.
private func expectOneLine(_ error: some FTWError, naming parts: [String]) {
    let line = error.description
    #expect(!line.isEmpty)
    #expect(!line.contains("\n"), "\(line)")
    for part in parts { #expect(line.contains(part), "\(line) does not name \(part)") }
    #expect(error.errorDescription == line)
}
