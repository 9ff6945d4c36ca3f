public import FTWBus

/// Why an enrolment link, the pairing it starts, or a later greeting of a paired site failed: the code for programs, the sentence for people.
///
/// Its `message` is a sentence for the terminal, which says the cause, when there is one, in words.
public struct EnrolmentError: FTWStoredError {
    /// What kind of failure this is; extensible without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case notAnEnrolmentLink, unknownVersion, segmentCount, badSegment, badLength, badLANHint, refused
            case noAnswer, relay, unknownSite, notKept, relayNotTrusted
        }

        private let value: Value

        /// The text is not `https://app.ftw.energy/p#…`.
        public static let notAnEnrolmentLink = Code(value: .notAnEnrolmentLink)
        /// The link's version is one this app does not know (a newer box, or a retired layout).
        public static let unknownVersion = Code(value: .unknownVersion)
        /// The fragment does not have the version's number of segments.
        public static let segmentCount = Code(value: .segmentCount)
        /// A segment is not base64url without padding.
        public static let badSegment = Code(value: .badSegment)
        /// The box key, pairing code or rendezvous secret has the wrong length.
        public static let badLength = Code(value: .badLength)
        /// The LAN hint is longer than 64 characters or not printable ASCII.
        public static let badLANHint = Code(value: .badLANHint)
        /// The box did not accept the handshake (the code is spent, expired, burnt or wrong) before the deadline.
        public static let refused = Code(value: .refused)
        /// Nothing answered through the relay before the deadline (no relay there, or no box in the room).
        public static let noAnswer = Code(value: .noAnswer)
        /// The relay address is not `ws://HOST[:PORT]` or `wss://HOST[:PORT]`.
        public static let relay = Code(value: .relay)
        /// The phone could not seal its key and the pending site before pairing, so it sent nothing.
        public static let notKept = Code(value: .notKept)
        /// The relay's TLS identity did not verify (an untrusted or expired certificate, another host's name, plain
        /// text on a `wss://` port): the message says which; `--ca` adds a private CA for a self-hosted relay.
        public static let relayNotTrusted = Code(value: .relayNotTrusted)
        /// No site of that name is paired on this phone.
        public static let unknownSite = Code(value: .unknownSite)

        /// The code's name.
        public var description: String { value.rawValue }
    }

    /// The code, the message and the cause, in the one storage every coded error shares.
    public var fields: FTWErrorFields<Code>

    /// Makes an error of these fields; ``/FTWBus/FTWStoredError/init(_:_:cause:)`` is the one callers write.
    public init(fields: FTWErrorFields<Code>) { self.fields = fields }

    /// The message, as a person reads it after `ftw-headless: `.
    public var description: String { message }
}
