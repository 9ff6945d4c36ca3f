import FTWFixtures
import Testing

/// The refusing port the dial tests use: refused while it is held, and no listener can take it meanwhile.
@Suite struct RefusingPortTests {
    @Test func aHeldPortRefusesAndCannotBeTaken() async throws {
        try await LoopbackTCP.withRefusingPort { port in
            #expect(LoopbackTCP.connected(to: port) == nil, "a connection is refused")
            #expect(LoopbackTCP.listening(port: port) == nil, "a listener cannot bind the held port")
        }
    }
}
