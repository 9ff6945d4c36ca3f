import FTWBoxProtocol
import FTWFixtures
import FTWFrameInspector
import Testing

/// `ftw-frame` as a person uses it: what `decode` prints for frames, envelopes and broken bytes, and what `encode`
/// makes of JSON.
@Suite struct FrameToolTests {
    static let tick = Message.tick(Tick(seq: 41, uptimeMs: 86_400_123))

    func run(_ arguments: String..., input: String = "") -> FrameTool.Outcome {
        FrameTool.run(arguments) { input }
    }

    @Test func decodeShowsTheHeaderTheEnvelopeAndTheTypedMessage() throws {
        let frame = Hex.string(try FrameCodec.encode(Self.tick, id: 7, controlBucket: 256))
        let outcome = run("decode", frame)
        #expect(outcome.status == 0)
        #expect(
            outcome.output.split(separator: "\n").map(String.init) == [
                "frame     version 1, lane 0 (control), flags 0x00, payload 35 bytes, 256 bytes in all (215 of padding)",
                #"envelope  {"t": "tick", "id": 7, "b": {"seq": 41, "uptimeMs": 86400123}}"#,
                "message", "  tick (id 7)", "    Tick", "      seq: 41", "      uptimeMs: 86400123",
            ]
        )
    }

    @Test func decodeReadsABareEnvelopeAndHexAsPeoplePasteIt() throws {
        let envelope = Self.tick.envelope(id: nil).encoded()
        let spaced = "0x" + envelope.map { Hex.string([$0]) }.joined(separator: " ")
        let outcome = run("decode", "-", input: spaced + "\n")
        #expect(outcome.status == 0)
        #expect(outcome.output.hasPrefix("frame     none: a bare envelope\nenvelope  {\"t\": \"tick\""))
    }

    @Test func aBrokenEnvelopeNamesTheByteOfTheWholeFrame() throws {
        var frame = try FrameCodec.encode(Self.tick, id: nil, controlBucket: 256)
        frame[8] = 0xff  // inside the key "t", which starts at byte 7 (the payload's byte 1)
        let outcome = run("decode", Hex.string(frame))
        #expect(outcome.status == 1)
        #expect(
            outcome.output.split(separator: "\n").suffix(3).map(String.init) == [
                "error     invalidUTF8 at byte 7: a text string is not valid UTF-8",
                "          01 00 00 00 00 1f a2 61 ff 64 74 69 63 6b 61 62 …",
                "                               ^^",
            ]
        )
    }

    @Test func aBodyTheTypeCannotReadNamesTheField() {
        let outcome = run("decode", Hex.string(Envelope(type: "tick", body: ["seq": 41]).encoded()))
        #expect(outcome.status == 1)
        #expect(
            outcome.output.contains(
                "error     missingField: tick.uptimeMs: required field is absent (field tick.uptimeMs)"
            )
        )
    }

    @Test func aShortFrameIsRefusedAtItsLengthField() {
        let outcome = run("decode", "01000000ff00a0")
        #expect(outcome.status == 1)
        #expect(outcome.output.contains("error     truncated at byte 4: the header declares 65280 payload bytes"))
    }

    @Test func encodeWritesTheFrameOfTheJSONOnItsLaneAndBucket() throws {
        let json = #"{"t": "tick", "id": 7, "b": {"uptimeMs": 86400123, "seq": 41}}"#
        let expected = Hex.string(try FrameCodec.encode(Self.tick, id: 7, controlBucket: 256))
        #expect(
            run("encode", "--bucket", "256", json) == FrameTool.Outcome(output: expected + "\n", errors: "", status: 0)
        )
        let plan = #"{"t": "plan.get"}"#
        #expect(run("encode", plan).output == Hex.string(try FrameCodec.encode(.planGet, id: nil)) + "\n")
    }

    /// What Foundation's JSON readers would lose (see `JSONParser`): a repeated member and an integer written as a
    /// float are refused, naming what is wrong, instead of becoming some other message.
    @Test func encodeRefusesARepeatedMemberAndAFloatWhereAnIntegerGoes() {
        let repeated = run("encode", #"{"t": "tick", "b": {"seq": 41, "uptimeMs": 1, "seq": 42}}"#)
        #expect(repeated.status == 1)
        #expect(repeated.errors.contains(#"the map holds the key "seq" twice"#))
        let float = run("encode", #"{"t": "tick", "b": {"seq": 41.0, "uptimeMs": 1}}"#)
        #expect(float.status == 1)
        #expect(float.errors.contains("tick.seq: expected an unsigned integer, found a float"))
    }

    @Test func decodeAsJSONFeedsEncodeBackTheSameFrame() throws {
        let message = Message.cmd(
            Command(
                cmdId: "c-1",
                op: .batteryHold,
                args: ["power_w": 2_500, "ratio": 0.25, "blob": .bytes([0, 255])],
                notValidAfterMs: 90_000,
                expect: Expect(rev: 3, guards: [Guard(fid: 5, op: .greaterThanOrEqual, value: 200.5)])
            )
        )
        let frame = Hex.string(try FrameCodec.encode(message, id: 12))
        let json = run("decode", "--json", frame)
        #expect(json.output.contains(#""blob": {"$bytes": "00ff"}"#))
        #expect(json.output.contains(#""ratio": 0.25"#))
        #expect(run("encode", "-", input: json.output).output == frame + "\n")
    }

    @Test(
        arguments: [
            (#"{"t": "tick", "b": {"seq": 1, "uptimeMs": 2,}}"#, "an object member needs a quoted name at byte 44"),
            (#"{"t": "plan.v2", "b": {}}"#, "plan.v2 is not a message type this build knows"),
            (#"{"t": "tick", "id": -1, "b": {}}"#, "id must be an integer 0 ... 4294967295"),
            (#"{"t": "tick", "b": {"seq": 18446744073709551616}}"#, "outside CBOR's -2^64 ... 2^64-1"),
            (#"{"t": "tick", "b": {"seq": {"$bytes": "0"}}}"#, "$bytes is not hex"),
            (#"{"t": "tick", "b": {"seq": 1.5, "uptimeMs": 2}}"#, "tick.seq"),
        ]
    )
    func encodeRefusesWhatIsNoMessageAndSaysWhy(json: String, reason: String) {
        let outcome = run("encode", json)
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains(reason), "\(outcome.errors)")
    }

    @Test func aCommandLineItDoesNotKnowGetsTheUsage() {
        for outcome in [run(), run("inspect"), run("decode"), run("encode", "--bucket", "300", "{}")] {
            #expect(outcome.status == 2)
            #expect(outcome.errors.contains("usage: ftw-frame decode"))
        }
        #expect(run("decode", "zz").status == 1)
    }
}
