import FTWFixtures
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The refusing port the dial tests use: refused while it is held, and no listener can take it meanwhile.
@Suite struct RefusingPortTests {
    @Test func aHeldPortRefusesAndCannotBeTaken() async throws {
        try await LoopbackTCP.withRefusingPort { port in
            #expect(LoopbackTCP.connected(to: port) == nil, "a connection is refused")
            #expect(Self.bindsOnLoopback(port: port) == false, "a listener cannot bind the held port")
        }
    }

    private static func bindsOnLoopback(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
