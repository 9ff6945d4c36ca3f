import FTWBoxProtocol

/// A session's answered commands by `cmdId`, kept 24 hours of box uptime: a retry replays the answer and never acts
/// twice (§2.10). It lives in the session, so the dedup does not survive a reconnect, as on the box.
struct CommandLog: Sendable {
    static let keptMs: Int64 = 86_400_000

    /// What a command was answered with.
    struct Answer: Sendable, Hashable {
        var ack: CommandAck?
        var result: CommandResult
        var atUptimeMs: Int64
    }

    private var answers: [String: Answer] = [:]

    /// The stored answer for `cmdId`, if it is still kept at `uptimeMs`.
    mutating func answer(cmdId: String, uptimeMs: Int64) -> Answer? {
        answers = answers.filter { uptimeMs - $0.value.atUptimeMs < Self.keptMs }
        return answers[cmdId]
    }

    mutating func record(_ answer: Answer, cmdId: String) {
        answers[cmdId] = answer
    }
}
