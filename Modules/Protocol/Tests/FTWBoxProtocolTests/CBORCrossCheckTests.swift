import FTWBoxProtocol
import FTWFixtures
import Foundation
import Testing

/// Our CBOR against an independent implementation, Python's `cbor2`, when CI switches cross-checks on
/// (`FTW_CROSSCHECK=1`, which `.ci/run` sets after installing the package).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["FTW_CROSSCHECK"] == "1"))
struct CBORCrossCheckTests {
    /// Runs `script` with `input` on stdin and returns stdout's lines.
    func python(_ script: String, input: [String] = []) async throws -> [String] {
        let run = try await Python.run(["-c", script], input: input.joined(separator: "\n"))
        #expect(run.status == 0, "python3 failed: \(run.errors)")
        return run.lines
    }

    @Test func cbor2RewritesOurDeterministicBytesUnchanged() async throws {
        let encoder = CBOREncoder(keyOrder: .deterministic)
        let values =
            SampleMessages.all.compactMap(\.body) + [
                [.int(.min), .unsigned(.max), 0.1, 1.5, 65504.0, 100000.0, .float(-.infinity), .float(.nan), .null],
                ["": .bytes([]), "ü": [[:], []], "long key that is over twenty-three bytes": false],
            ]
        let ours = values.map { Vectors.hex(encoder.encode($0)) }
        let script = """
            import cbor2, sys
            for line in sys.stdin.read().split():
                print(cbor2.dumps(cbor2.loads(bytes.fromhex(line)), canonical=True).hex())
            """
        #expect(try await python(script, input: ours) == ours)
    }

    @Test func weRewriteWhatCbor2WritesAsItsCanonicalForm() async throws {
        let script = """
            import cbor2, random
            random.seed(20260822)
            def value(depth):
                kind = random.randrange(9 if depth < 4 else 6)
                if kind == 0: return random.randrange(-2**64, 2**64)
                if kind == 1: return random.choice([0, 23, 24, 255, 256, 65535, 65536, 2**32, -1, -25, -2**63])
                if kind == 2: return random.choice([0.0, -0.0, 1.0, 0.5, 0.2, 1e300, 5.960464477539063e-8,
                                                    float('inf'), random.uniform(-1e6, 1e6), float(random.randrange(70000))])
                if kind == 3: return ''.join(random.choice('aé水🙂 ') for _ in range(random.randrange(30)))
                if kind == 4: return bytes(random.randrange(256) for _ in range(random.randrange(30)))
                if kind == 5: return random.choice([True, False, None])
                if kind == 6: return [value(depth + 1) for _ in range(random.randrange(6))]
                return {''.join(random.choice('abcdefgh') for _ in range(random.randrange(1, 12))): value(depth + 1)
                        for _ in range(random.randrange(6))}
            for _ in range(300):
                v = value(0)
                print(cbor2.dumps(v).hex(), cbor2.dumps(v, canonical=True).hex())
            """
        let pairs = try await python(script).map { $0.split(separator: " ").map(String.init) }
        #expect(pairs.count == 300)
        for pair in pairs {
            let value = try CBORDecoder().decode(hex(pair[0]))
            #expect(Vectors.hex(CBOREncoder(keyOrder: .deterministic).encode(value)) == pair[1])
        }
    }
}
