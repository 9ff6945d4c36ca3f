/// The reads the box fails on purpose, at most one fault per read.
struct ReadFaults: Sendable {
    private var faults: [BoxRead: ReadFault] = [:]

    /// Sets (or replaces) the fault of its read.
    mutating func set(_ fault: ReadFault) {
        faults[fault.read] = fault
    }

    /// Lifts the fault of `read`, if any.
    mutating func lift(_ read: BoxRead) {
        faults[read] = nil
    }

    /// How a request of `read` arriving now fails, if it does; a fault for one read only is used up.
    mutating func take(_ read: BoxRead) -> ReadFault.Kind? {
        guard let fault = faults[read] else { return nil }
        if !fault.always { faults[read] = nil }
        return fault.kind
    }
}
