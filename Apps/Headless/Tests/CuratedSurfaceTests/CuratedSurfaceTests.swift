// `import FTWClient` brings a curated list of types, not the modules they come from. This file imports it beside a
// library that declares `EventLoop`, `CBOR`, `Frame` and `TLSConfiguration` (as swift-nio or a CBOR library does) and
// names them unqualified: were FTWClient to re-export FTWSocketLoop, FTWBoxProtocol or FTWWebSocket whole, each name
// would be ambiguous and this target would not compile.
import FTWClient
import FTWNeighbourLibrary
import Testing

@Suite struct CuratedSurfaceTests {
    @Test func theNeighboursNamesStayUnambiguousBesideTheClientsTypes() {
        let loop = EventLoop(name: "main")
        let value = CBOR.text("battery_w")
        let frame = Frame(bytes: [0xA0])
        let tls = TLSConfiguration(verifies: true)
        #expect(loop.name == "main")
        #expect(value == .text("battery_w"))
        #expect(frame.bytes.count == 1)
        #expect(tls.verifies)
        // The curated types are there beside them, with the members their modules declare.
        #expect(TraceField(named: "battery_w")?.unit == "W")
        #expect(RelayAddress.production.secure)
        let phase: ScenePhase = .active
        #expect(phase != .background)
    }
}
