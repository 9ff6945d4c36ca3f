/// The fuzzers' assertion: traps with its message, which libFuzzer then reports with the input that broke it.
///
/// `precondition` keeps the check in an optimised build but drops the message, and a finding without its message
/// costs a debugging session; `fatalError` keeps both.
public enum FuzzCheck {
    /// Traps with `message` unless `condition` holds.
    public static func require(
        _ condition: Bool,
        _ message: @autoclosure () -> String,
        file: StaticString = #fileID,
        line: UInt = #line
    ) {
        if !condition { fatalError(message(), file: file, line: line) }
    }

    /// Traps with `message`: for the branches a correct decoder never takes.
    public static func fail(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError(message, file: file, line: line)
    }
}
