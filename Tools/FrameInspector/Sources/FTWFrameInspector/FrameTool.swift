import FTWBoxProtocol

/// The `ftw-frame` command: `decode` shows what a frame or envelope holds, `encode` builds the frame of a message
/// written as JSON. Kept apart from `main` so tests run it in-process.
public enum FrameTool {
    /// What a run prints and how it exits.
    public struct Outcome: Sendable, Hashable {
        /// Text for standard output.
        public var output: String
        /// Text for standard error.
        public var errors: String
        /// The exit status: 0 done, 1 the input was refused, 2 the command line was not understood.
        public var status: Int32

        /// Makes an outcome.
        public init(output: String, errors: String, status: Int32) {
            self.output = output
            self.errors = errors
            self.status = status
        }
    }

    /// The help text.
    public static let usage = """
        usage: ftw-frame decode [--json] HEX|-
               ftw-frame encode [--bucket 256|512] JSON|-

        decode  reads a frame (header, CBOR envelope, padding) or a bare envelope as hex (spaces, colons and a
                leading 0x are fine; - reads standard input) and prints the header, the envelope in CBOR
                diagnostic notation and the typed message, or the error and the byte where decoding stopped.
                --json prints only the envelope, as the JSON that encode reads.
        encode  reads a message as JSON, {"t": "tick", "id": 3, "b": {...}}, and prints its frame as hex, on the
                message's lane; --bucket sets the lane 0 frame size (default 512). Integers are CBOR integers,
                numbers with a fraction or exponent are floats, {"$bytes": "hex"} is a byte string.
        """

    /// Runs the command `arguments` (without the program name); `standardInput` is read only for `-`.
    public static func run(_ arguments: [String], standardInput: () -> String) -> Outcome {
        do throws(InspectorError) {
            switch arguments.first {
            case "decode": return try decode(Array(arguments.dropFirst()), standardInput: standardInput)
            case "encode":
                return Outcome(output: try encode(Array(arguments.dropFirst()), standardInput), errors: "", status: 0)
            case "-h", "--help", "help": return Outcome(output: usage + "\n", errors: "", status: 0)
            default: throw InspectorError(.usage, "expected decode or encode")
            }
        } catch {
            let hint = error.code == .usage ? "\n" + usage : ""
            return Outcome(
                output: "",
                errors: "ftw-frame: \(error.message)\(hint)\n",
                status: error.code == .usage ? 2 : 1
            )
        }
    }

    private static func decode(_ arguments: [String], standardInput: () -> String) throws(InspectorError) -> Outcome {
        let json = arguments.first == "--json"
        let rest = json ? Array(arguments.dropFirst()) : arguments
        guard rest.count == 1 else { throw InspectorError(.usage, "decode takes one HEX argument, or - for stdin") }
        let text = rest[0] == "-" ? standardInput() : rest[0]
        guard let bytes = Hex.bytes(text), !bytes.isEmpty else { throw InspectorError(.badHex, "the input is not hex") }
        let inspection = Inspection(bytes)
        if json {
            if let error = inspection.error { throw error }
            return Outcome(output: (inspection.envelope.map(CBORJSON.json)?.text ?? "") + "\n", errors: "", status: 0)
        }
        return Outcome(output: inspection.report(of: bytes) + "\n", errors: "", status: inspection.error == nil ? 0 : 1)
    }

    private static func encode(_ arguments: [String], _ standardInput: () -> String) throws(InspectorError) -> String {
        var bucket = Frame.defaultControlBucket
        var rest = arguments
        if rest.first == "--bucket" {
            guard rest.count >= 2, let size = Int(rest[1]), Frame.controlBuckets.contains(size) else {
                throw InspectorError(.usage, "--bucket is 256 or 512")
            }
            bucket = size
            rest.removeFirst(2)
        }
        guard rest.count == 1 else { throw InspectorError(.usage, "encode takes one JSON argument, or - for stdin") }
        let message = try MessageJSON.message(from: rest[0] == "-" ? standardInput() : rest[0])
        do throws(ProtocolError) {
            return Hex.string(try FrameCodec.encode(message.message, id: message.id, controlBucket: bucket)) + "\n"
        } catch {
            throw InspectorError(refusal: error, layerStart: 0)
        }
    }
}
