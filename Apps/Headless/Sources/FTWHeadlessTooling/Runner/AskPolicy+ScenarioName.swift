import FTWCache

extension AskPolicy {
    /// The policy's name as scenario files and reports write it.
    var scenarioName: String {
        switch self {
        case .ageKeyed: "age-keyed"
        case .everyReturn: "every-return"
        }
    }
}
