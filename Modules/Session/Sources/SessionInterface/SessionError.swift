public import BoxProtocol

/// Why a request or the session itself failed: the one error type of the session.
///
/// A caller mostly needs to know whether anything was answered: every code but `.box` means the box's answer never
/// arrived, so nothing may be recorded as answered; `.box` carries the box's own `error` body, typed.
public struct SessionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is; extensible without breaking callers.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case carrierLost, timeout, box, terminated, incompatibleProtocol, handshakeFailed, dialFailed
            case responseTooLarge, malformedAnswer, cancelled, requestTooLarge
        }

        private let value: Value

        /// The carrier dropped while the request was pending; it was settled unanswered.
        public static let carrierLost = Code(value: .carrierLost)
        /// The box stayed silent past the request's deadline.
        public static let timeout = Code(value: .timeout)
        /// The box answered with an `error` frame for this request (see ``SessionError/box``).
        public static let box = Code(value: .box)
        /// The box ended the session (`session.terminate`), with the reason in the message.
        public static let terminated = Code(value: .terminated)
        /// The box's protocol range does not overlap ours.
        public static let incompatibleProtocol = Code(value: .incompatibleProtocol)
        /// The Noise handshake did not complete (the box refused with silence, or the deadline passed).
        public static let handshakeFailed = Code(value: .handshakeFailed)
        /// No carrier could be opened.
        public static let dialFailed = Code(value: .dialFailed)
        /// The API answer passed the size ceiling (`api.end.truncated`).
        public static let responseTooLarge = Code(value: .responseTooLarge)
        /// The answer arrived but was not what the request expects (chunks out of order, no `api.head`).
        public static let malformedAnswer = Code(value: .malformedAnswer)
        /// The caller went away (task cancelled) before the answer came.
        public static let cancelled = Code(value: .cancelled)
        /// The request does not fit a frame (a command past the lane 0 bucket, a body past 16 KiB); it was not sent.
        public static let requestTooLarge = Code(value: .requestTooLarge)

        /// The code's name.
        public var description: String { value.rawValue }
    }

    /// What kind of failure this is.
    public var code: Code
    /// A sentence for logs; the client owns the wording a person sees.
    public var message: String
    /// The box's own error body when ``code`` is `.box`.
    public var box: ErrorBody?

    /// Makes an error.
    public init(_ code: Code, _ message: String, box: ErrorBody? = nil) {
        self.code = code
        self.message = message
        self.box = box
    }

    /// Whether trying again later may succeed: the box says so for its own errors; a lost carrier or a silence
    /// always may; a refusal of the request itself never does.
    public var isRetryable: Bool {
        if let box { return box.retryable }
        return code == .carrierLost || code == .timeout || code == .dialFailed || code == .handshakeFailed
    }

    /// The code and the message.
    public var description: String { "\(code): \(message)" }
}
