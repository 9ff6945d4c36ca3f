/// One read the box fails on purpose, and how: what `box fail READ KIND [once|always]` turns.
public struct ReadFault: Sendable, Hashable, Codable {
    /// How the read fails.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        /// The box never answers: the app's own deadline ends the read (or the session, for hello).
        case timeout
        /// `E_UNAVAILABLE {reason: busy}` (retryable): an API read is sent again up to three times. For hello, a
        /// `hello_ok` saying the box is `booting`: the phone says hello again.
        case busy
        /// An answer on the request's id that cannot be read: an API body that is not JSON, or a `plan`, `price`,
        /// `hist.chunk` or `hello_ok` whose body has a field of the wrong type.
        case malformed
        /// `E_UNKNOWN_OP`: the box does not carry the read (a route missing from its build); for hello, without an id
        /// (session-wide).
        case refused
        /// `E_SCOPE_DENIED {role: viewer}` (not retryable): the phone's grant lacks the read's scope, as a viewer's
        /// would. The box re-reads the role on every request (an owner may change it at any time), so this is no
        /// refusal by the build; for hello, without an id (session-wide).
        case denied
    }

    /// The read that fails.
    public var read: BoxRead
    /// How.
    public var kind: Kind
    /// Every such read fails until the fault is lifted; otherwise only the next one.
    public var always: Bool

    /// Makes a fault.
    public init(read: BoxRead, kind: Kind, always: Bool) {
        self.read = read
        self.kind = kind
        self.always = always
    }
}
