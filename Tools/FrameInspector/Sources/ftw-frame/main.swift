import FTWFrameInspector

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// `ftw-frame decode HEX|-` and `ftw-frame encode JSON|-`: see FrameTool.usage.
let outcome = FrameTool.run(Array(CommandLine.arguments.dropFirst())) {
    var lines: [String] = []
    while let line = readLine(strippingNewline: false) { lines.append(line) }
    return lines.joined()
}
print(outcome.output, terminator: "")
let errors = Array(outcome.errors.utf8)
_ = errors.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
exit(outcome.status)
