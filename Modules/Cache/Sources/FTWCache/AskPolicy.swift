/// When a standing answer is asked for again.
public enum AskPolicy: String, Sendable, Hashable, CaseIterable {
    /// The project's rule: an answer stands while its name holds, and, when someone starts looking again, while
    /// it is younger than its time to live. Nothing else asks.
    case ageKeyed
    /// Today's app, kept for comparison: every return of the stream asks again, whatever the data's age.
    case everyReturn
}
