public import FTWBus

/// Why an answer about prices or the plan could not be taken: the one error type of the Prices module.
///
/// An answer that fails these checks is never recorded, so the model keeps what it showed before instead of
/// drawing a window that does not add up.
///
/// Its `message` is a sentence for logs, never shown to a person as is, which says the cause, when there is one, in
/// words.
public struct PricesError: FTWStoredError {
    /// What kind of failure this is; extensible without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case badSlot, slotsOutOfOrder, unplaceableDay
        }

        private let value: Value

        /// A slot lasts no time (or less), or its end does not fit in a 64-bit millisecond count.
        public static let badSlot = Code(value: .badSlot)
        /// A slot starts before the one before it ends: the slots are not oldest first without overlap.
        public static let slotsOutOfOrder = Code(value: .slotsOutOfOrder)

        /// The calendar cannot place the day containing the instant asked for in the time zone it is read in.
        public static let unplaceableDay = Code(value: .unplaceableDay)

        /// The code's name.
        public var description: String { value.rawValue }
    }

    /// The code, the message and the cause, in the one storage every coded error shares.
    public var fields: FTWErrorFields<Code>

    /// Makes an error of these fields; ``/FTWBus/FTWStoredError/init(_:_:cause:)`` is the one callers write.
    public init(fields: FTWErrorFields<Code>) { self.fields = fields }
}
