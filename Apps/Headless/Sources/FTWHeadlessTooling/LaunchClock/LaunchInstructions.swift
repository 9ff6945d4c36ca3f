/// The instructions one launch with sealed files executes from `exec` to its first content, against the C baseline
/// on the same files, counted by valgrind's callgrind: the launch clock's stable measure, which neither the
/// machine's load nor its caches move, where the wall clock moves by a third between runs.
///
/// Both programs are counted from their first instruction (the loader's: relocations and every initialiser before
/// `main` included) until they enter the function that marks their first content, every thread: the client as
/// `launch-once --until-content` (build every model, draw the sealed files) until `ProcessorTime.atFirstContent()`,
/// the baseline (read the key, open every sealed file) until `ftw_at_first_content()`. What either does after it
/// (releasing, OpenSSL's clean-up at exit) is not a person's wait and is not counted.
public struct LaunchInstructions: Sendable, Hashable, Codable {
    /// The client's instructions, every thread.
    public var client: Int
    /// The C baseline's.
    public var baseline: Int
    /// `client` over `baseline`: the target is at most 1.5.
    public var ratio: Double

    /// Makes a count; the ratio is zero when the baseline counted nothing.
    public init(client: Int, baseline: Int) {
        self.client = client
        self.baseline = baseline
        ratio = baseline > 0 ? Double(client) / Double(baseline) : 0
    }
}
