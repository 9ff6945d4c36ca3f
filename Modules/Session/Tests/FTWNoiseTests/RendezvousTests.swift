import FTWFixtures
import FTWNoise
import Testing

/// The relay room's epoch and handle, as the box and the reference app compute them.
@Suite struct RendezvousTests {
    @Test func handlesMatchTheIdentityVectors() throws {
        let json = try Vectors.json("identity-vectors.json")
        let rendezvous = try #require(json["rendezvous"] as? [String: Any])
        let secretHex = try #require(rendezvous["secret"] as? String)
        let secret = try #require(Vectors.bytes(hex: secretHex))
        let handles = try #require(rendezvous["handles"] as? [String: String])
        #expect(handles.count == 3)
        for (epochText, handle) in handles {
            let epoch = try #require(Int64(epochText))
            #expect(Rendezvous.handle(secret: secret, epoch: epoch) == handle, "epoch \(epoch)")
        }
    }

    @Test(
        arguments: [
            (0, 0), (3_599_999, 0), (3_600_000, 1), (1_777_777_777_777, 493_827),
            (-1, -1), (-3_599_999, -1), (-3_600_000, -1), (-3_600_001, -2),
            (.min, -2_562_047_788_016), (.max, 2_562_047_788_015),
        ] as [(Int64, Int64)]
    )
    func theEpochIsTheFlooredHour(nowMs: Int64, epoch: Int64) {
        #expect(Rendezvous.epoch(nowMs: nowMs) == epoch)
    }

    /// The expected handle was derived with Python's hmac module (RFC 5869 by hand) from the vectors' secret.
    @Test func theHourBefore1970HasTheHandleOfEpochMinusOne() throws {
        let secret = try #require(Vectors.bytes(hex: String(repeating: "00112233445566778899aabbccddeeff", count: 2)))
        let handle = Rendezvous.handle(secret: secret, epoch: Rendezvous.epoch(nowMs: -1))
        #expect(handle == "27165bed73270db01e65ea8b17fd692b")
    }
}
