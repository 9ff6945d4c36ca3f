import FTWBoxProtocol
import FTWFixtures
import Foundation

/// `ftw-bench cbor`: decoding a five-minute stay's envelopes (``SessionMix``) with `CBORDecoder`, against Python's
/// `cbor2` (its native `loads`) decoding the same bytes in the same run; printed in µs per message and as a ratio.
///
/// `ftw-bench cbor decode <passes>` runs only the Swift decode loop, for `valgrind --tool=callgrind`; `ftw-bench cbor
/// mix` prints the envelopes as hex lines, the input of `Tools/Benchmarks/cbor2-decode.py`, the Python side.
enum CBORBenchmark {
    private static let passes = 200
    private static let rounds = 5

    /// Runs the whole benchmark; `decode <passes>` runs only the decode loop, `mix` prints the envelopes.
    static func run(arguments: [String]) {
        let mix = SessionMix.envelopes()
        if arguments.first == "mix" {
            for envelope in mix { print(Vectors.hex(envelope)) }
            return
        }
        if arguments.first == "decode" {
            let passes = arguments.dropFirst().first.flatMap { Int($0) } ?? 1
            print("cbor: decoded \(decode(mix, passes: passes)) items")
            return
        }
        let bytes = mix.reduce(0) { $0 + $1.count }
        print("cbor: a five-minute stay, \(mix.count) envelopes, \(bytes) bytes (best of \(rounds) rounds)")
        let swift = best { decode(mix, passes: passes) } / Double(passes * mix.count)
        print(String(format: "cbor: CBORDecoder:              %.2f µs/msg", swift * 1e6))
        guard let python = python(mix) else { return }
        print(String(format: "cbor: Python cbor2 (baseline):  %.2f µs/msg  (%@)", python.seconds * 1e6, python.kind))
        print(String(format: "cbor: ratio CBORDecoder / cbor2: %.2f", swift / python.seconds))
    }

    /// Decodes every envelope `passes` times; the item count keeps the work from being optimised away.
    @inline(never)
    static func decode(_ mix: [[UInt8]], passes: Int) -> Int {
        let decoder = CBORDecoder()
        var items = 0
        for _ in 0..<passes {
            for envelope in mix {
                guard case .map(let map) = try? decoder.decode(envelope) else {
                    preconditionFailure("the session mix holds an envelope that does not decode to a map")
                }
                items += map.count
            }
        }
        return items
    }

    /// The seconds of the fastest of `rounds` runs of `body`.
    private static func best(_ body: () -> Int) -> Double {
        let clock = ContinuousClock()
        var fastest = Duration.seconds(1_000)
        for _ in 0..<rounds {
            let start = clock.now
            _ = body()
            fastest = min(fastest, start.duration(to: clock.now))
        }
        return fastest / .seconds(1)
    }

    /// cbor2's seconds per message on the same bytes and passes, or nil (said why) when it cannot run.
    private static func python(_ mix: [[UInt8]]) -> (seconds: Double, kind: String)? {
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // CBORBenchmark.swift
            .deletingLastPathComponent()  // ftw-bench
            .deletingLastPathComponent()  // Sources
            .appendingPathComponent("cbor2-decode.py")
        let input = mix.map { Vectors.hex($0) }.joined(separator: "\n")
        guard let run = try? Python.runBlocking([script.path, "\(passes)", "\(rounds)"], input: input), run.status == 0
        else {
            print("cbor: Python cbor2 (baseline): skipped, python3 did not run")
            return nil
        }
        let words = run.output.split(whereSeparator: \.isWhitespace)
        guard words.count >= 2, let seconds = Double(words[0]) else {
            print("cbor: Python cbor2 (baseline): skipped, cbor2 is not installed")
            return nil
        }
        return (seconds, words.dropFirst().joined(separator: " "))
    }
}
