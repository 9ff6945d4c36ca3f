import FTWBoxProtocol
import FTWFixtures
import FTWFrameInspector
import FTWTestingTraits
import Foundation
import Testing

/// `ftw-frame` against Python's cbor2, both ways, on a few thousand random messages of every type, when CI switches
/// cross-checks on (`FTW_CROSSCHECK=1`, which `.ci/run` sets after installing cbor2).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["FTW_CROSSCHECK"] == "1"))
struct FrameCrossCheckTests {
    struct Case {
        var message: Message
        var id: UInt32?
        var json: String
        var frame: String
    }

    static let count = 3_000

    /// Every message as `ftw-frame encode` writes it: the JSON it reads and the frame it prints.
    static func cases() throws -> [Case] {
        let generator = MessageGenerator(random: SeededRandom(seed: 0x00f7_a3e0_2026))
        return try (0..<count).map { index in
            let id = generator.random.chance(70) ? generator.random.number(in: 0...UInt32.max) : nil
            let bucket = generator.random.pick(Frame.controlBuckets)
            var message = generator.message(kind: index % MessageGenerator.kinds)
            // Lane 0 frames are small: draw again until the message fits, as the app keeps its own requests short.
            while (try? FrameCodec.encode(message, id: id, controlBucket: bucket)) == nil {
                message = generator.message(kind: index % MessageGenerator.kinds)
            }
            // The form our reader gives back (an empty optional list is left out, so it reads as nil), which is what
            // any reader of these bytes must see.
            message = try Message(envelope: try Envelope.decode(message.envelope(id: id).encoded()))
            let json = CBORJSON.json(try CBORDecoder().decode(message.envelope(id: id).encoded())).text
            let outcome = FrameTool.run(["encode", "--bucket", String(bucket), json]) { "" }
            try #require(outcome.status == 0, "\(json): \(outcome.errors)")
            return Case(message: message, id: id, json: json, frame: outcome.output.trimmingCharacters(in: .newlines))
        }
    }

    @Test(.ownThread) func cbor2ReadsOurFramesAsTheirJSONAndWeReadCbor2sEnvelopesAsTheMessage() async throws {
        let cases = try Self.cases()
        let answers = try await Self.python(input: cases.map { "\($0.json)\t\($0.frame)" })
        try #require(answers.count == cases.count)
        for (item, answer) in zip(cases, answers) {
            let parts = answer.split(separator: " ")
            try #require(parts.first == "ok", "\(answer) for \(item.json)")
            let theirs = String(parts[1])
            let inspection = Inspection(try #require(Hex.bytes(theirs)))
            #expect(inspection.message == item.message, "\(theirs) read back as another message")
            #expect(inspection.id == item.id)
            let decoded = FrameTool.run(["decode", "--json", theirs]) { "" }
            let json = try CBORJSON.cbor(try JSONParser.parse(decoded.output))
            #expect(
                json == (try CBORJSON.cbor(try JSONParser.parse(item.json))),
                "\(theirs) decoded to \(decoded.output)"
            )
        }
    }

    /// Runs Tools/crosscheck/frame_crosscheck.py with `input` on stdin and returns its lines.
    static func python(input: [String]) async throws -> [String] {
        let script = Vectors.repositoryRoot.appending(path: "Tools/crosscheck/frame_crosscheck.py")
        let run = try await Python.run(
            [script.path(percentEncoded: false)],
            input: input.joined(separator: "\n") + "\n"
        )
        #expect(run.status == 0, "python3 failed: \(run.errors)")
        return run.lines
    }
}
