import FTWFixtures
import FTWNoise
import Testing

/// The transport section of webapp-vectors.json: with the vector handshake's keys, each listed frame sealed by the
/// listed side at the listed sequence number gives exactly the listed wire, and the other side opens it.
@Suite struct TransportVectorTests {
    private let vectors: WebAppVectors

    init() throws {
        vectors = try WebAppVectors()
    }

    @Test func everyStepSealsToTheVectorWire() throws {
        var (app, box) = try vectors.sessions()
        for step in vectors.transport {
            let frame = try #require(vectors.frames[step.frame])
            #expect((step.fromApp ? app.sender : box.sender).nextSequence == step.sequence, "\(step)")
            let wire = step.fromApp ? try app.seal(frame) : try box.seal(frame)
            #expect(Vectors.hex(wire) == Vectors.hex(step.wire), "\(step)")
            #expect(wire.count == frame.count + NoiseTransport.overhead)
        }
    }

    @Test func everyVectorWireOpensOnTheOtherSide() throws {
        var (app, box) = try vectors.sessions()
        for step in vectors.transport {
            let frame = step.fromApp ? try box.open(step.wire) : try app.open(step.wire)
            #expect(frame == vectors.frames[step.frame], "\(step)")
        }
    }

    @Test func theVectorsCoverBothDirectionsAndBothBucketSizes() {
        #expect(vectors.transport.count == 7)
        #expect(Set(vectors.transport.map(\.fromApp)) == [true, false])
        #expect(Set(vectors.transport.map(\.wire.count)) == [536, 1048])
    }
}
