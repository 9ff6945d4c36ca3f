/// The seed's table as one JSON document: both runs and the ratio of their totals.
public struct TourDocument: Sendable, Codable {
    /// The tour under the age-keyed policy.
    public var ageKeyed: ScenarioReport
    /// The tour under the old every-return policy.
    public var everyReturn: ScenarioReport
    /// Old total over new total.
    public var ratio: Double?

    /// Makes the document.
    public init(ageKeyed: ScenarioReport, everyReturn: ScenarioReport) {
        self.ageKeyed = ageKeyed
        self.everyReturn = everyReturn
        ratio = ageKeyed.totalRequests > 0 ? Double(everyReturn.totalRequests) / Double(ageKeyed.totalRequests) : nil
    }
}
